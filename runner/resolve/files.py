"""resolve's files in a run directory, as the other readers point to them: explain's last line,
summary.md and report.html's last section. Kept apart from the verb so that a pointer does not load
all of resolve (its model, hunt's, the fingerprint) into `run`'s summary or `explain`.
"""

from __future__ import annotations

import json
import os
import shlex

from crashmatrix.cell import spell

RESOLUTION_JSON = "resolution.json"
RESOLUTION_MD = "resolution.md"
REPRO_DIR = "repro"  # repro/<signature>/: a bug report per failure kind


def pointer(run: str) -> str:
    """The line explain ends with: resolution.md where resolve has run, else the command that writes it."""
    path = os.path.join(run, RESOLUTION_MD)
    if os.path.exists(path):
        return f"what to run instead, and a bug report per failure: {path}"
    return f"what to run instead, and a bug report per failure: `crashmatrix resolve {shlex.quote(run)}`"


def recommended_line(run_dir: str) -> str:
    """`run instead: a=1 b=2` from the run's resolution.json; "" where it has none or recommends nothing."""
    try:
        with open(os.path.join(run_dir, RESOLUTION_JSON), encoding="utf-8") as f:
            recommended = json.load(f).get("recommended")
    except (OSError, ValueError, AttributeError):
        return ""
    if not isinstance(recommended, dict) or not isinstance(recommended.get("values"), dict):
        return ""
    values = " ".join(f"{a}={spell(v)}" for a, v in recommended["values"].items())
    return f"run instead: {values}"
