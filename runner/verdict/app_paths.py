"""The program's own files named as its repository names them: their path from the app's root (pure but for
looking for the root's marker files; controller side, never imports torch). forensics and exception_place
name the program's frames so."""

from __future__ import annotations

import os

from crashmatrix.app.code_knobs import ROOT_MARKERS


def app_root(entry: str) -> str:
    """The app's root for the file of its outermost own frame (its entry script, or the Hydra task's):
    the nearest folder from the file's up holding a project's root marker (code_knobs.ROOT_MARKERS, the
    ones init looks for: .project-root, pyproject.toml, setup.py, setup.cfg, .git); without one, the
    file's own folder. torch and the app both have a `dataset.py`: the path from
    there tells them apart, and a script in a subfolder (scripts/train.py) still names its package's files
    as the repository does."""
    start = os.path.dirname(entry)
    folder = start
    while folder and os.path.isabs(folder):
        if any(os.path.exists(os.path.join(folder, m)) for m in ROOT_MARKERS):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return start


def from_root(path: str, root: str) -> str:
    """path from root where it lies below it; else as faulthandler gave it."""
    rel = os.path.relpath(path, root) if root else path
    return path if rel.startswith("..") or os.path.isabs(rel) else rel
