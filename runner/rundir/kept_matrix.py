"""--resume DIR: the matrix kept in DIR is the one that goes on, for run and hunt alike.

A MATRIX (with its overrides) given beside --resume is accepted when it resolves to the kept one, so
`run MATRIX --resume DIR` and `run --resume DIR` mean the same; anything else is refused, naming the keys
that differ, since resuming under another matrix would mix two experiments in one results.csv.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from crashmatrix.errors import BadInput
from crashmatrix.matrix.spec import Matrix

# How the cells are run, not what they are: flags (--no-preflight, --no-sync-rerun) write these into the kept
# matrix, and a resume need not repeat them.
_HOW_NOT_WHAT = ("preflight", "sync_rerun")
_MOST_KEYS_NAMED = 4


def kept_path(run_dir: str) -> str:
    """DIR's matrix.yaml; BadInput when DIR is not a run directory."""
    if not os.path.isdir(run_dir):
        raise BadInput(f"--resume {run_dir}: no such run directory")
    path = os.path.join(run_dir, "matrix.yaml")
    if not os.path.exists(path):
        raise BadInput(f"{run_dir}: not a run directory (no matrix.yaml)")
    return path


def looks_like_override(argument: str | None) -> bool:
    """`repeats=3`, `~axes.wandb`, `+axes.x=[1]`: an override where a matrix file may stand, not a file."""
    if not argument or os.path.exists(argument):
        return False
    return "=" in argument or argument.startswith(("~", "+"))


def resumed_matrix(
    run_dir: str, given: str | None, overrides: Sequence[str], load: Callable[[str, Sequence[str]], Matrix]
) -> Matrix:
    """The matrix kept in run_dir. given (a matrix file) and overrides, where there are any, must resolve to it.

    load(path, overrides): how the verb reads a matrix (its program resolved), for both sides alike.
    """
    path = kept_path(run_dir)
    kept = load(path, [])
    if given is None and not overrides:
        return kept
    named = given or path
    check_same(load(named, list(overrides)), kept, named if given else f"{run_dir} with {' '.join(overrides)}", run_dir)
    return kept


def same_matrix(given: Matrix, kept: Matrix) -> bool:
    """The same experiment: equal but for how its cells are run (preflight, sync reruns)."""
    return _compared(given) == _compared(kept)


def check_same(given: Matrix, kept: Matrix, given_name: str, run_dir: str) -> None:
    ours, theirs = _compared(given), _compared(kept)
    if ours == theirs:
        return
    keys = differing_keys(ours, theirs)
    shown = ", ".join(keys[:_MOST_KEYS_NAMED]) + (
        f" and {len(keys) - _MOST_KEYS_NAMED} more" if len(keys) > _MOST_KEYS_NAMED else ""
    )
    raise BadInput(
        f"{given_name}: not the matrix kept in {run_dir} (they differ in {shown}); "
        f"resume with `--resume {run_dir}` alone, or start a new run"
    )


def _compared(matrix: Matrix) -> dict:
    data = matrix.to_yaml_dict()
    for key in _HOW_NOT_WHAT:
        data.pop(key, None)
    return data


def differing_keys(ours: object, theirs: object, prefix: str = "") -> list[str]:
    """The dotted keys whose values differ: `axes.flood_mb`, `repeats`; the whole value where not both mappings."""
    if not (isinstance(ours, dict) and isinstance(theirs, dict)):
        return [] if ours == theirs else [prefix or "(the whole file)"]
    out = []
    for key in list(ours) + [k for k in theirs if k not in ours]:
        name = f"{prefix}.{key}" if prefix else str(key)
        if key not in ours or key not in theirs:
            out.append(name)
        else:
            out += differing_keys(ours[key], theirs[key], name)
    return out
