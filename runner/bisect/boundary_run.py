"""`crashmatrix bisect RUN` along a numeric axis: a line of the run narrowed with real cells.

The line (crashmatrix.bisect.axis_order) holds every other axis at the failing cell's values; each test
is that cell with the axis at a value the search picks, listed by the matrix or not, run as a cell of the
bisect's own run directory. The search is crashmatrix.bisect.boundary (pure); the memory figures come
from the run's rows of the line and the bisect's own (crashmatrix.bisect.memory_scale). bisect.json gets
the contract's keys (good: the value that passes, bad: the one that fails) and a `boundary` object.
"""

from __future__ import annotations

import os
import signal
import sys
from collections import defaultdict
from collections.abc import Mapping, Sequence

from crashmatrix.bisect.axis_order import Line
from crashmatrix.bisect.boundary import narrow
from crashmatrix.bisect.cell_run import CellRunner, open_run_dir
from crashmatrix.bisect.memory_scale import COLUMNS, MemoryScale, scale_of
from crashmatrix.bisect.result import Boundary, BoundaryInterrupted
from crashmatrix.bisect.text import as_boundary_json, boundary_detail, boundary_line, memory_lines
from crashmatrix.cell import Cell, spell
from crashmatrix.matrix.spec import Matrix
from crashmatrix.outcome import FailureKind
from crashmatrix.process.interrupts import catching
from crashmatrix.process.stops import StopRegistry
from crashmatrix.rundir.store import RunDir, read_rows
from crashmatrix.rundir.unwritable import RunDirUnwritable
from crashmatrix.text import shown_path

__all__ = ["narrow_line", "line_rows"]


def line_rows(rows: Sequence[Mapping], matrix: Matrix, line: Line) -> list[Mapping]:
    """The rows (typed values) of the line's very cells: the held values, and the cell_id the values
    give (an include may have extended a cell with the same values)."""
    order = list(matrix.axes)
    return [
        r
        for r in rows
        if all(spell(r.get(a)) == spell(v) for a, v in line.held.items())
        and Cell.of(line.values(r[line.axis], order)).cell_id == r["cell_id"]
    ]


def narrow_line(
    matrix: Matrix,
    line: Line,
    target: FailureKind,
    *,
    out: str,
    repeats: int | None = None,
    jobs: int = 1,
    max_runs: int | None = None,
    table_rows: Sequence[Mapping] = (),
    fits: Mapping[str, float] | None = None,
    stream=None,
) -> tuple[Boundary, dict, bool]:
    """Returns (the boundary, bisect.json's contents, interrupted). table_rows: the run's rows of the line
    (line_rows), evidence for the search and figures for memory; () where the matrix changed since."""
    stream = stream or sys.stdout
    order = list(matrix.axes)
    ends = [Cell.of(line.values(v, order)) for v in (line.passes, line.fails)]
    store, pending = open_run_dir(matrix, ends, out)
    a = line.axis
    print(
        f"crashmatrix bisect: {target.said()} follows {a}: narrowing it between the listed {a}={spell(line.passes)}"
        f" (passes) and {a}={spell(line.fails)} (fails)" + (f", {line.held_text()} held" if line.held else ""),
        file=stream,
        flush=True,
    )
    seeded: dict = defaultdict(list)
    for row in table_rows:
        seeded[row[a]].append(FailureKind.from_row(row))
    settings = {"repeats": repeats, "max_runs": max_runs, "jobs": jobs, "seeded": seeded}
    found, interrupted = _search(matrix, store, pending, line, target, settings, stream)
    store.write_json("env.json", pending.finish())
    data, lines = _answer(store, matrix, line, found, target, table_rows, dict(fits or {}))
    store.write_json("bisect.json", data)
    text = "\n".join([""] + lines)
    store.write_text("summary.md", f"# crashmatrix bisect {matrix.name}\n{text}\n")
    print(text, file=stream, flush=True)
    print(f"bisect.json: {shown_path(os.path.join(store.path, 'bisect.json'))}", file=stream, flush=True)
    return found, data, interrupted


def _search(
    matrix: Matrix, store: RunDir, pending, line: Line, target: FailureKind, settings: dict, stream
) -> tuple[Boundary, bool]:
    """The search with real cells: (the boundary, interrupted). Ctrl-C or a stop keeps the bracket so far."""
    order = list(matrix.axes)
    stops = StopRegistry()
    runner = CellRunner(matrix, store, stream, stops)

    def run_value(value: object) -> FailureKind:
        return runner(line.values(value, order), f"{line.axis}={spell(value)}")

    try:
        with catching((signal.SIGINT, signal.SIGTERM), stops.interrupt_or_defer):
            found = narrow(line.axis, line.passes, line.fails, run_value, target, integer=line.integer, **settings)
    except BoundaryInterrupted as e:
        stops.stop_everything()
        pending.stop()
        return e.result, True
    except RunDirUnwritable as e:  # a full disk: bisect has no --resume
        stops.stop_everything()
        pending.stop()
        raise RunDirUnwritable(e.path, e.error, "run the bisect again with a new --out") from None
    return found, False


def _scales(rows: Sequence[Mapping], axis: str, integer: bool) -> list[MemoryScale]:
    return [s for kind in COLUMNS if (s := scale_of(rows, axis, kind, integer)) is not None]


def _answer(
    store: RunDir,
    matrix: Matrix,
    line: Line,
    found: Boundary,
    target: FailureKind,
    table_rows: Sequence[Mapping],
    fits: dict[str, float],
) -> tuple[dict, list[str]]:
    """bisect.json (the contract's keys, then `boundary`) and the lines that say it."""
    order = list(matrix.axes)
    scales = _scales([*table_rows, *read_rows(store.path)[0]], line.axis, line.integer)
    said = found.target
    data = {
        "good": {k: spell(v) for k, v in line.values(found.passes, order).items()},
        "bad": {k: spell(v) for k, v in line.values(found.fails, order).items()},
        "minimal": {line.axis: spell(found.fails)} if found.found else {},
        "outcome": said.outcome if said else None,
        "signal": said.signal if said else "",
        "runs": found.runs,
        "signature": said.signature if said else "",
        "counted_from_run": found.seeded,
        "confirmed": bool(said),
        "partial": found.partial,
        "stop_reason": found.stop_reason,
        "boundary": as_boundary_json(found, line.held, scales, fits, line.integer),
    }
    lines = [boundary_line(found, target, scales), boundary_detail(found, line.held_text())]
    if said:
        lines += memory_lines(line.axis, scales, fits, line.integer)
    return data, lines
