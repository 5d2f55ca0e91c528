"""--resume DIR: the options a run directory was started with, kept beside its matrix, for every verb.

options.json is written once, when the run directory is created: the verb that made it and its options,
by their flags (`{"verb": "run", "options": {"--jobs": 2, "--executor": "slurm", ...}}`). A resume reads
them back, so `crashmatrix VERB --resume DIR` alone goes on as the run started (on Slurm, with its
--jobs and --max-failures), and that is the command an interrupted run prints. An option given again
beside --resume overrides the kept one, and the resume says so.

A run directory from before this file (or one the Python API made without it) has none: its resume takes
the defaults, as it did. A hunt's older directory kept its options in hunt-options.json, read in its stead.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Mapping
from typing import Any

from crashmatrix.errors import BadInput
from crashmatrix.text import shown_path

OPTIONS_FILE = "options.json"
_HUNT_BEFORE = "hunt-options.json"  # a hunt's options before options.json (hunt's own names, not flags)


def keep(run_dir: str, verb: str, options: Mapping[str, Any]) -> None:
    """Write DIR's options.json, once: a run directory that has one keeps it (a resume never rewrites it)."""
    path = os.path.join(run_dir, OPTIONS_FILE)
    data = {"verb": verb, "options": dict(options)}
    try:
        with open(path, "x", encoding="utf-8") as f:
            json.dump(data, f, indent=2, sort_keys=True)
            f.write("\n")
    except FileExistsError:
        pass


def read(run_dir: str, verb: str) -> dict[str, Any]:
    """The options `verb` kept in run_dir, by flag; {} where it kept none (an older run directory).

    BadInput when run_dir was made by another verb: `run --resume` of a hunt's directory would run its
    whole matrix into the hunt's results.csv."""
    data = _read_json(os.path.join(run_dir, OPTIONS_FILE))
    if data is None:
        return {}
    made_by = data.get("verb")
    if made_by != verb:
        raise BadInput(
            f"--resume {run_dir}: a {made_by}'s run directory, not a {verb}'s; go on with: {resume_command(made_by, run_dir)}"
        )
    return dict(data.get("options") or {})


def read_any(run_dir: str) -> tuple[str | None, dict[str, Any]]:
    """(the verb, its options by flag) kept in run_dir, whichever verb made it; (None, {}) where none is kept.
    A hunt's older hunt-options.json reads as the hunt's."""
    data = _read_json(os.path.join(run_dir, OPTIONS_FILE))
    if data is not None:
        return data.get("verb"), dict(data.get("options") or {})
    before = _read_json(os.path.join(run_dir, _HUNT_BEFORE))
    if before is not None:
        return "hunt", hunt_flags(before)
    return None, {}


def hunt_flags(names: Mapping[str, Any]) -> dict[str, Any]:
    """hunt-options.json's names (HuntOptions' fields) as flags."""
    flags = {"order": "--order", "confidence": "--confidence", "max_runs": "--max-runs", "jobs": "--jobs"}
    flags.update(executor="--executor", from_run="--from", seed="seed")
    return {flags[k]: v for k, v in names.items() if k in flags}


def kept_by(run_dir: str, verb: str) -> bool:
    """Whether run_dir keeps `verb`'s options: whether `crashmatrix VERB --resume DIR` can go on with it."""
    made_by, _options = read_any(run_dir)
    return made_by == verb


def resumed(kept: Mapping[str, Any], given: Mapping[str, Any], say) -> dict[str, Any]:
    """The options a resume runs with: the kept ones, each option given on the command line (not None)
    instead; say(line) tells of each that differs from the kept."""
    out = dict(kept)
    for flag, value in given.items():
        if value is None:
            continue
        if kept.get(flag) is not None and kept[flag] != value:
            say(f"crashmatrix: {flag} {_spelled(value)} given: instead of the kept {flag} {_spelled(kept[flag])}")
        elif flag in kept and kept[flag] is None:
            say(f"crashmatrix: {flag} {_spelled(value)} given: the run started without it")
        out[flag] = value
    return out


def resume_command(verb: str | None, run_dir: str) -> str:
    """Exactly the command that goes on with the run in run_dir: its options are kept there."""
    return f"crashmatrix {verb or 'run'} --resume {shlex.quote(shown_path(run_dir))}"


def _spelled(value: Any) -> str:
    if value is True:
        return "(on)"
    if value is False:
        return "(off)"
    return str(value)


def _read_json(path: str) -> dict | None:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
