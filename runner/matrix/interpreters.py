"""The reserved axis `python`: which interpreter runs a cell.

Each value is an interpreter (a path, or a name on PATH such as `python3.12`).
It replaces `python` in an external `command` and runs the child of a probe.
The value is kept verbatim in the cell's values, so the cell id is the same on
every machine that spells the interpreter the same way; it is resolved to a
file only when the cell is launched. It never reaches the program as a
`key=value` argument: it chooses the program's interpreter, it is not one of
the program's settings.
"""

from __future__ import annotations

import os
import shutil
import sys

from crashmatrix.cell import spell
from crashmatrix.errors import BadInput

PYTHON_AXIS = "python"


def resolve(value) -> str | None:
    """The executable file a value names, or None when there is none."""
    name = spell(value)
    if os.sep in name:
        path = os.path.abspath(os.path.expanduser(name))
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    return shutil.which(name)


def of_cell(values: dict) -> str:
    """The interpreter a cell runs under: its `python` value, else the controller's own."""
    if PYTHON_AXIS not in values:
        return sys.executable
    return resolve(values[PYTHON_AXIS]) or spell(values[PYTHON_AXIS])


def check(axes: dict, include: list | tuple, params: dict, path: str) -> None:
    """Bad input before anything is written: every interpreter must be an executable file."""
    if PYTHON_AXIS in params:
        raise BadInput(
            f"{path}: params.{PYTHON_AXIS}: the interpreter is an axis; write "
            f"axes: {{{PYTHON_AXIS}: [{spell(params[PYTHON_AXIS])}]}}"
        )
    for i, entry in enumerate(include):
        if PYTHON_AXIS in entry:
            _check_one(entry[PYTHON_AXIS], path, f"include[{i}].{PYTHON_AXIS}")
    for value in axes.get(PYTHON_AXIS, []):
        _check_one(value, path, f"axes.{PYTHON_AXIS}")


def _check_one(value, path: str, key: str) -> None:
    if not isinstance(value, str) or not value.strip():
        raise BadInput(f"{path}: {key}: {value!r} is not an interpreter; give a path such as /envs/a/bin/python")
    if resolve(value) is None:
        name = os.path.abspath(os.path.expanduser(value)) if os.sep in value else value
        why = ("not executable" if os.path.isfile(name) else "no such file") if os.sep in value else "not on PATH"
        raise BadInput(f"{path}: {key}: interpreter {value}: {why}")


def of_cells(cells) -> dict[str, str]:
    """The distinct interpreters of the cells, in order: the name env.json gives each (the value as
    written, or the controller's own path) -> the executable."""
    out: dict[str, str] = {}
    for cell in cells:
        key = spell(cell.values[PYTHON_AXIS]) if PYTHON_AXIS in cell.values else sys.executable
        if key not in out:
            out[key] = resolve(key) or key
    return out
