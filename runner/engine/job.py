"""What a submitted job runs on its node: crashmatrix's own supervisor over a chunk of cell runs.

submitit alone reports a segfaulting job as `UncompletedJobError ... has not
produced any output (state: FINISHED)`. Here the cells stay children of our
own supervisor inside the job, so each run still ends with its signal, written
as result.json into the run directory on the shared filesystem; the controller
turns those into rows as they appear.
"""

from __future__ import annotations

import os
import signal
import socket

from crashmatrix.cell import Cell, CellRun
from crashmatrix.engine import fleet
from crashmatrix.engine.loop import Engine
from crashmatrix.matrix.spec import load_matrix
from crashmatrix.outcome import counts_as_failing
from crashmatrix.rundir.store import RunDir


def run_chunk(
    run_dir: str,
    runs: list[tuple[dict, int]],
    jobs: int = 1,
    build=None,
    matrix=None,
    node: str = "",
    max_failures: int | None = None,
) -> dict:
    """Run the given (cell values, repeat) runs with the run directory's matrix (or `matrix`, with the
    `build` that starts its runs: the Hydra launcher's jobs). node: the fleet's node this job is pinned to
    (crashmatrix.engine.fleet), its runs' identity and its fingerprint's name; with max_failures, no run
    starts once the node has that many failing runs (fleet.stop).

    Returns {"ran": n, "interrupted": "SIGTERM" | None}: scancel, preemption and
    a job's time limit all arrive as SIGTERM, which ends the cells at once.
    """
    matrix = matrix or load_matrix(os.path.join(run_dir, "matrix.yaml"))
    store = RunDir(run_dir)
    name = fleet.fingerprint_file(node or socket.gethostname())
    pending = _ask_fingerprint(matrix, store, name, node)
    count = failing = 0

    def on_result(result):
        nonlocal count, failing
        store.write_result(result)
        count += 1
        failing += counts_as_failing(result.outcome)
        if node and max_failures is not None and failing >= max_failures:
            fleet.stop(store.path, node)

    # A requeued job (preemption, node failure) must not run again what already has its result.
    cell_runs = [
        run
        for run in (CellRun(Cell.of(values), repeat, node) for values, repeat in runs)
        if store.read_result(run) is None
    ]
    # submitit warns a job with SIGUSR2 before its time limit or preemption: stop the cells then too,
    # so that they end as in-flight runs (error rows, rerun by --resume), not killed mid-write.
    engine = Engine(
        matrix,
        store=store,
        on_result=on_result,
        jobs=jobs,
        stop_signals=(signal.SIGINT, signal.SIGTERM, signal.SIGUSR2),
        build=build,
        stop_starting=(lambda: fleet.stopped(store.path, node)) if node and max_failures is not None else None,
    )
    ended = engine.run(cell_runs)
    if pending is not None:
        if ended.interrupted_by:
            pending.stop()
        store.write_json(name, pending.finish())
    return {"ran": count, "interrupted": ended.interrupted_by, "host": socket.gethostname()}


def _ask_fingerprint(matrix, store: RunDir, name: str, node: str):
    """The node's fingerprint, asked while its cells run (fingerprint.Pending), by the first job on the node
    only; None where one is kept already. A fleet's nodes may share a host name (several slurmd on one
    machine), so there the node names the file."""
    if os.path.exists(os.path.join(store.path, name)):
        return None
    from crashmatrix.machine import fingerprint
    from crashmatrix.matrix import interpreters
    from crashmatrix.matrix.expand import expand

    pending = fingerprint.start(interpreters.of_cells(expand(matrix)))
    if node:
        pending.facts["node"] = node
    store.write_json(name, pending.facts)  # the node, should the job be killed
    return pending
