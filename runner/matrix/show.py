"""`crashmatrix show`: the expanded cells of a matrix, before anything runs, as a table, CSV or JSON."""

from __future__ import annotations

import csv
import io
import json

from crashmatrix.cell import spell
from crashmatrix.matrix.expand import columns, expand


def roles_lines(matrix) -> list[str]:
    """Which axes crashmatrix applies itself (knobs) and which reach the program as its own keys."""
    from crashmatrix.matrix.interpreters import PYTHON_AXIS
    from crashmatrix.matrix.knob_names import INJECT_KNOBS

    axes = list(matrix.axes)
    env = [a for a in axes if a.startswith("env.")]
    python = [a for a in axes if a == PYTHON_AXIS]
    rest = [a for a in axes if a not in env and a not in python]
    if matrix.probe:
        knobs = [a for a in rest if a in INJECT_KNOBS]
        groups = [("knobs (crashmatrix applies them)", knobs), ("the probe's own parameters", _others(rest, knobs))]
    elif matrix.inject:
        knobs = [a for a in rest if a in INJECT_KNOBS and a not in matrix.axis_keys]
        groups = [
            ("knobs (crashmatrix applies them; not passed)", knobs),
            ("the app's own keys (passed as key=value)", _others(rest, knobs)),
        ]
    else:
        passed = "passed as key=value (inject: false: the program must apply any knob itself)"
        groups = [(passed, _others(rest, []))]
    groups += [("environment variables", env), ("the interpreter", python)]
    return [f"{label}: {', '.join(names)}" for label, names in groups if names]


def _others(axes: list[str], knobs: list[str]) -> list[str]:
    """The axes that are not knobs (a {values, keys} axis's keys are on its own `sets:` line)."""
    return [a for a in axes if a not in knobs]


def show_text(matrix, fmt: str = "table") -> str:
    """What `show --format FMT` prints, its last newline included."""
    cells = expand(matrix)
    axis_columns = columns(matrix, cells)
    rows = [[c.cell_id] + [spell(c.values[k]) if k in c.values else "" for k in axis_columns] for c in cells]
    if fmt == "json":
        return json.dumps([{"cell_id": c.cell_id, **c.values} for c in cells], indent=1) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf)  # the csv module's own line ends (\r\n), as before
        writer.writerow(["cell_id"] + axis_columns)
        writer.writerows(rows)
        return buf.getvalue()
    from tabulate import tabulate

    lines = [tabulate(rows, headers=["cell_id"] + axis_columns)]
    lines += [f"{axis} sets: {', '.join(keys)}" for axis, keys in matrix.axis_keys.items()]
    lines += roles_lines(matrix)
    runs = len(cells) * matrix.repeats
    lines.append(f"\n{len(cells)} cells x {matrix.repeats} repeats = {runs} runs ({matrix.strategy})")
    return "\n".join(lines) + "\n"
