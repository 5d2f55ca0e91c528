"""Checkpoints: written through an open file (so a partial file can be removed by the caller)."""

import os
from pathlib import Path

import torch


def save(state: dict, path: str) -> None:
    with open(path, "wb") as f:
        torch.save(state, f)


def run_dir(out: Path, name: str) -> Path:
    d = out / name / "metrics"
    d.mkdir(parents=True, exist_ok=True)
    return d


def write_pointer(out: Path, name: str) -> None:
    """The name of the latest run, for the dashboard: a plain file `out/latest`."""
    (out / "latest").write_text(name)


def size_mb(path: str) -> float:
    return os.path.getsize(path) / 2**20
