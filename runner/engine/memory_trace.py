"""The second, instrumented run of a growing cell (issue 50, item 2): which line keeps its memory.

A run whose memory grew is run once more, alone, with `CRASHMATRIX_TRACE_MEMORY=1` (runner/incell/memory_trace.py:
tracemalloc from its first batch, a census of what is alive at a few steps), into `<run>/memory_trace/`, a
run directory of its own: its rows are not the matrix's (tracing changes the speed), and nothing else reads
them but the growth finding (crashmatrix.answers.kept). Only under `inject: true`, which is what puts the
census in the program's loop.
"""

from __future__ import annotations

import dataclasses
import os

from crashmatrix.cell import CellRun
from crashmatrix.engine.loop import Engine
from crashmatrix.incell.memory_trace import ENV
from crashmatrix.matrix.expand import expand
from crashmatrix.matrix.spec import Matrix
from crashmatrix.rundir.store import RunDir

DIR_NAME = "memory_trace"


def trace(matrix: Matrix, run_dir: str, cell_ids: list[str], value_columns: list[str]) -> int:
    """Run each of `cell_ids` once more, traced, into run_dir/memory_trace/; how many ran (0 where the matrix
    does not inject, or the folder already holds a trace)."""
    where = os.path.join(run_dir, DIR_NAME)
    if not matrix.inject or not cell_ids or os.path.exists(os.path.join(where, "results.csv")):
        return 0
    wanted = set(cell_ids)
    cells = [c for c in expand(matrix) if c.cell_id in wanted]
    if not cells:
        return 0
    traced = dataclasses.replace(matrix, env={**matrix.env, ENV: "1"}, repeats=1)
    store = RunDir(where)
    store.create(traced.to_yaml_dict(), value_columns)
    Engine(traced, store=store, on_result=store.record, jobs=min(2, len(cells))).run([CellRun(c, 0) for c in cells])
    return len(cells)
