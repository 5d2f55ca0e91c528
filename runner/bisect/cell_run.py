"""One configuration run for real as a cell of a bisect's own run directory, and that directory opened.

Both searches use it: delta debugging (a mix of good and bad values) and a numeric axis's boundary (the
line's cell at a value the matrix may never have listed: the engine runs whatever values a cell holds).
Each run is logged as a row of the bisect's results.csv and one progress line.
"""

from __future__ import annotations

import threading
from collections import Counter

from crashmatrix.app import preflight
from crashmatrix.cell import Cell, CellRun
from crashmatrix.engine.loop import Engine
from crashmatrix.machine import fingerprint
from crashmatrix.matrix import interpreters
from crashmatrix.matrix.executor_settings import check_executor
from crashmatrix.matrix.spec import Matrix
from crashmatrix.outcome import FailureKind
from crashmatrix.process.stops import StopRegistry
from crashmatrix.rundir.store import RunDir, RunResult

__all__ = ["CellRunner", "open_run_dir"]


def open_run_dir(matrix: Matrix, cells: list[Cell], out: str) -> tuple[RunDir, fingerprint.Pending]:
    """The bisect's run directory, created after the preflight of `cells` (which cover every value the
    search sets); the interpreters' fingerprint is asked while the cells run."""
    check_executor(matrix.executor, "local", matrix.path)  # bisect runs its cells here
    preflight.check(matrix, cells)
    store = RunDir(out)
    store.create(matrix.to_yaml_dict(), list(matrix.axes))
    pending = fingerprint.start(interpreters.of_cells(cells[:2]))
    store.write_json("env.json", pending.facts)
    return store, pending


class CellRunner:
    """Runs a configuration once as a real cell, records it, says one progress line; thread-safe."""

    def __init__(self, matrix: Matrix, store: RunDir, stream, stops: StopRegistry):
        self.matrix, self.store, self.stream = matrix, store, stream
        self.stops = stops  # the bisect's: one Ctrl-C ends the cells of every worker thread
        self.lock = threading.Lock()
        self.repeats: Counter[str] = Counter()
        self.count = 0

    def __call__(self, values: dict, what: str) -> FailureKind:
        """Run the cell of `values`; `what` names it on the progress line (the changes, the value)."""
        cell = Cell.of(values)
        with self.lock:
            repeat = self.repeats[cell.cell_id]
            self.repeats[cell.cell_id] += 1
        results: list[RunResult] = []

        def keep(result: RunResult) -> None:
            self.store.record(result)
            results.append(result)

        Engine(self.matrix, store=self.store, on_result=keep, jobs=1, install_signals=False, stops=self.stops).run(
            [CellRun(cell, repeat)]
        )
        r = results[0]
        with self.lock:
            self.count += 1
            said = FailureKind(r.outcome, r.signal).label()  # a progress line: no room for the signature
            print(
                f"[{self.count:>3}] {said:<20} {what}  ({r.duration_s:.1f}s, {r.log_dir})", file=self.stream, flush=True
            )
        return FailureKind(r.outcome, r.signal, r.signature)
