"""Running cells through submitit: Slurm job arrays, or submitit's local executor.

Cells are grouped into jobs (`cells_per_job`), submitted as one array with a
parallelism limit. Each job runs crashmatrix's supervisor (crashmatrix.engine.job), which
writes result.json per run into the run directory on the shared filesystem;
this controller turns them into rows as they appear, and records the runs of a
job that ended without them (scancel, node failure, preemption, time limit) as
`error` with the job's state, which --resume runs again.
"""

from __future__ import annotations

import os
import shlex
import signal
import sys
import threading
import time
from collections import Counter

from crashmatrix.engine import fleet
from crashmatrix.matrix.executor_settings import rank_layout, submitit_parameters
from crashmatrix.outcome import JOB_LOST, Outcome, counts_as_failing
from crashmatrix.process import interrupts
from crashmatrix.process.stops import ExecutorOutcome
from crashmatrix.rundir.store import RunDir, RunResult
from crashmatrix.rundir.unwritable import writing


def _lost(run, store: RunDir, why: str) -> RunResult:
    # A run the job never reached has no directory yet; its result.json needs one (the job's own log
    # is named in `why`).
    cell_dir = os.path.join(store.path, "cells", run.dirname)
    os.makedirs(cell_dir, exist_ok=True)
    return RunResult(
        cell_id=run.cell.cell_id,
        repeat=run.repeat,
        values=run.cell.values,
        node=run.node,
        outcome=Outcome.ERROR.value,
        error=why,
        signature=JOB_LOST,
        log_dir=store.relative_to_run(cell_dir),
        started_at=time.strftime("%Y-%m-%dT%H:%M:%S"),
    )


def _gone_from_queue(jobs) -> set:
    """Jobs Slurm no longer lists as pending or running.

    Without accounting (no slurmdbd) `sacct` fails and submitit never learns that a job which left
    no result has ended; squeue still knows which jobs are alive.
    """
    import subprocess

    ids = [str(job.job_id) for job in jobs]
    try:
        out = subprocess.run(
            ["squeue", "-h", "-r", "-o", "%i", "-j", ",".join(ids)], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return set()
    if out.returncode != 0 and "Invalid job id" not in out.stderr:
        return set()
    alive = set(out.stdout.split())
    return {job for job in jobs if str(job.job_id) not in alive}


def _how_it_ended(job) -> str:
    """The job's own word if it returned (it was stopped by a signal), else the scheduler's state."""
    try:
        if os.path.exists(job.paths.result_pickle):
            summary = job.result()
            if isinstance(summary, dict) and summary.get("interrupted"):
                return (
                    f"job {job.job_id} was stopped by {summary['interrupted']} (scancel, preemption or its time limit)"
                )
    except Exception:
        pass
    return f"job {job.job_id} ended (state: {job.state})"


def run_submitted(
    matrix,
    store: RunDir,
    todo: list,
    *,
    cluster: str,
    on_result,
    jobs_per_cell_job: int = 1,
    build=None,
    max_failures: int | None = None,
) -> ExecutorOutcome:
    """Submit, collate as results arrive, until every run has its row or a stop signal comes.

    build: what starts a run on the node (the engine's); given, it travels pickled with the matrix itself.

    Interrupted (SIGINT, SIGTERM), the pending jobs are cancelled and the results they wrote so far
    are kept. max_failures: only for a fleet, counted per node (fleet.stop); stopped_early says a node stopped.
    """
    settings = dict(matrix.executor)
    cells_per_job = int(settings.get("cells_per_job", 1))  # checked when the matrix was loaded
    chunked = _chunks_by_node(todo, cells_per_job)
    if not chunked:
        return ExecutorOutcome(True)
    wake = threading.Event()
    interrupted: list[str] = []

    def on_stop(name: str) -> None:
        interrupted.append(name)
        wake.set()

    with interrupts.catching((signal.SIGINT, signal.SIGTERM), on_stop):
        pending: dict = {}  # job -> its chunk of runs
        with writing(store.path):  # submitit pickles each job into the run directory
            for node, chunks in chunked.items():
                jobs = _submit(
                    matrix, store, chunks, cluster, cells_per_job, jobs_per_cell_job, build, node, max_failures
                )
                pending.update(zip(jobs, chunks))
        collator = _Collator(store, on_result, max_failures)
        queue_check_s = float(settings.get("queue_check_s", 10.0))
        next_queue_check = time.monotonic() + queue_check_s
        try:
            while pending and not interrupted:
                gone = set()
                if cluster == "slurm" and time.monotonic() >= next_queue_check:
                    gone = _gone_from_queue([j for j in pending if not j.done()])
                    next_queue_check = time.monotonic() + queue_check_s
                collator.collect_jobs(pending, gone)
                if pending:
                    wake.wait(float(settings.get("poll_s", 1.0)))
        except Exception:
            _cancel(pending)  # a result that cannot be recorded (a full disk): no job runs on without us
            raise
        if interrupted:
            _cancel(pending)
            for chunk in pending.values():
                collator.collect(chunk)
            return ExecutorOutcome(False, interrupted[0])
        return ExecutorOutcome(True, stopped_early=bool(collator.stopped))


def _chunks_by_node(todo: list, cells_per_job: int) -> dict[str, list[list]]:
    """The runs in chunks of cells_per_job, a fleet's by node: each node's chunks are an array of its own,
    pinned to it (an ordinary run's node is "", one array)."""
    by_node: dict[str, list] = {}
    for run in todo:
        by_node.setdefault(run.node, []).append(run)
    return {
        node: [runs[i : i + cells_per_job] for i in range(0, len(runs), cells_per_job)]
        for node, runs in by_node.items()
    }


def _cancel(pending: dict) -> None:
    for job in pending:
        try:
            job.cancel(check=False)
        except Exception:
            pass


def _submit(
    matrix,
    store: RunDir,
    chunks: list,
    cluster: str,
    cells_per_job: int,
    jobs_per_cell_job: int,
    build=None,
    node: str = "",
    max_failures: int | None = None,
) -> list:
    """One array job, a chunk of runs per job, each run by crashmatrix's supervisor on its node (on `node`
    only, in a fleet)."""
    import submitit

    from crashmatrix.engine.job import run_chunk

    params = submitit_parameters(dict(matrix.executor), cluster, matrix.timeout, cells_per_job)
    # Ranks as Slurm tasks: the supervisor is the batch script's own process (exec), so that the signals
    # Slurm sends the batch shell (scancel, the time limit's B:USR2) are its to handle.
    batch = {"slurm_python": f"exec {shlex.quote(sys.executable)}"} if params.get("slurm_use_srun") is False else {}
    executor = submitit.AutoExecutor(folder=os.path.join(store.path, "submitit"), cluster=cluster, **batch)
    if node:
        params["slurm_nodelist"] = node
    executor.update_parameters(name=f"crashmatrix-{matrix.name}", **params)
    return executor.map_array(
        run_chunk,
        [store.path] * len(chunks),
        [[(run.cell.values, run.repeat) for run in chunk] for chunk in chunks],
        # a cell whose ranks are Slurm tasks takes every task of its job: one at a time
        [1 if rank_layout(matrix.executor) else jobs_per_cell_job] * len(chunks),
        [build] * len(chunks),
        # only a given build ships the matrix pickled: an ordinary one is read back from the run directory,
        # whose matrix.yaml never holds a secret's value
        [matrix if build is not None else None] * len(chunks),
        [node] * len(chunks),
        [max_failures] * len(chunks),
    )


class _Collator:
    """Turns the result.json files the jobs write into results, each once, and a job's missing runs into `error`."""

    def __init__(self, store: RunDir, on_result, max_failures: int | None = None):
        self.store = store
        self.on_result = on_result
        self.recorded: set = set()
        self.max_failures = max_failures
        self.failing: Counter = Counter()  # a fleet's failing runs per node
        self.stopped: set[str] = set()  # nodes where no new run starts (--max-failures)

    def _recorded(self, result) -> None:
        self.on_result(result)
        if self.max_failures is not None and result.node and counts_as_failing(result.outcome):
            self.failing[result.node] += 1
            if self.failing[result.node] >= self.max_failures and result.node not in self.stopped:
                self.stopped.add(result.node)
                fleet.stop(self.store.path, result.node)  # for the node's jobs yet to start a run

    def collect(self, chunk) -> None:
        for run in chunk:
            if run.key not in self.recorded:
                result = self.store.read_result(run)
                if result is not None:
                    self.recorded.add(run.key)
                    self._recorded(result)

    def collect_jobs(self, pending: dict, gone: set) -> None:
        """Results so far of every pending job; a job that ended leaves `pending`, its missing runs lost."""
        for job, chunk in list(pending.items()):
            # ended is taken before collecting, so results written just before the end are collected
            ended = job.done() or job in gone
            self.collect(chunk)
            if ended:
                # a stopped node's runs that never started are not lost: --resume runs them
                missing = [
                    run
                    for run in chunk
                    if run.key not in self.recorded and not (run.node and fleet.stopped(self.store.path, run.node))
                ]
                if missing:
                    how = f"job {job.job_id} left the queue without a result" if job in gone else _how_it_ended(job)
                    why = (
                        f"{how} before this run finished; job log: "
                        f"{self.store.relative_to_run(str(job.paths.stderr))}; --resume runs it again"
                    )
                    for run in missing:
                        self.recorded.add(run.key)
                        self.on_result(_lost(run, self.store, why))
                del pending[job]
