"""`crashmatrix show`: the expanded cells of a matrix, before anything runs, as a table, CSV or JSON."""

from __future__ import annotations

import csv
import io
import json

from crashmatrix.cell import spell
from crashmatrix.expand import columns, expand


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
    runs = len(cells) * matrix.repeats
    lines.append(f"\n{len(cells)} cells x {matrix.repeats} repeats = {runs} runs ({matrix.strategy})")
    return "\n".join(lines) + "\n"
