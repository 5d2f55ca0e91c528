"""A cell's memory.json (runner/incell/memory_sampler.py): the samples its main process kept writing.

A cell that ended well reports its growth in report.json's metrics; one that died before (an OOM, a
signal) left only this file, written at most a second before it died, and its growth is read from it.
Either way the file is folded into the run's metrics (result.json keeps the samples) and removed.
"""

from __future__ import annotations

import contextlib
import json
import os

from crashmatrix.incell.memory_sampler import figures

MEMORY_FILE = "memory.json"
KEYS = ("rss_growth_mb_per_step", "gpu_growth_mb_per_step", "memory")


def with_samples(metrics: dict, cell_dir: str) -> dict:
    """metrics, with the growth memory.json recorded where the report had none."""
    path = os.path.join(cell_dir, MEMORY_FILE)
    try:
        with open(path, encoding="utf-8") as f:
            kept = json.load(f)
    except (OSError, ValueError):
        return metrics
    with contextlib.suppress(OSError):
        os.remove(path)
    if metrics.get("memory") or not isinstance(kept, dict) or not isinstance(kept.get("memory"), dict):
        return metrics
    return {**metrics, **_recomputed(kept)}


def _recomputed(kept: dict) -> dict:
    """The growth from the kept samples (as memory_sampler computes it at the cell's end)."""
    memory = kept["memory"]
    try:
        columns = [memory[name] for name in ("step", "main_mb", "workers_mb", "gpu_allocated_mb", "gpu_reserved_mb")]
        return figures([tuple(sample) for sample in zip(*columns)], int(memory.get("every") or 1))
    except (KeyError, TypeError, ValueError):
        return {k: kept.get(k) for k in KEYS}
