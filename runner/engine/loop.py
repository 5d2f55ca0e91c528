"""Running cell runs: N at a time, each a supervised fresh process, each result recorded as it ends.

The loop waits on pidfds (and a self-pipe for signals), so a finished cell is
seen at once rather than at the next poll. Ctrl-C or SIGTERM stops every
running tree (SIGTERM, a grace of at most 1 s, SIGKILL), keeps what finished,
and reports the run as interrupted. What starts a cell is crashmatrix.process.launch; what
it left is read by crashmatrix.rundir.cell_logs and judged by classify and forensics; the
session's running cells are kept in a crashmatrix.process.stops.StopRegistry.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import select
import signal
import socket
import threading
import time
from dataclasses import dataclass

from crashmatrix.cell import CellRun
from crashmatrix.engine import side_by_side
from crashmatrix.matrix.spec import Matrix
from crashmatrix.outcome import LAUNCH_ERROR, Outcome, counts_as_failing
from crashmatrix.process import interrupts, slurm_tasks, supervise
from crashmatrix.process.launch import build_launch
from crashmatrix.process.stops import ExecutorOutcome, StopRegistry
from crashmatrix.rundir import cell_files, memory_file, rank_speed
from crashmatrix.rundir.cell_logs import HEAD_BYTES, read_ends, read_report
from crashmatrix.rundir.store import RunDir, RunResult
from crashmatrix.rundir.unwritable import RunDirUnwritable
from crashmatrix.verdict import rank_ends
from crashmatrix.verdict.evidence import Evidence, cgroup_oom_counter


@dataclass
class _Slot:
    """One started run: what its end needs (its process, GPU, the evidence kept for forensics)."""

    run: CellRun
    cell_dir: str
    running: supervise.Running
    started_at: str
    gpu: str | None
    evidence: Evidence


def _end_tree(running: supervise.Running, kill_grace: float, stops: StopRegistry) -> list[str]:
    """Whatever the cell left behind (a setsid'd grandchild, wandb-core) dies now; what had to be killed."""
    grace = min(kill_grace, 1.0) if running.term_sent_at is None else 0.0
    leftovers = supervise.kill_tree(running.launch.token, grace)
    if running.launch.ranks_dir is not None:  # its ranks on other nodes: their Slurm step
        slurm_tasks.end_step(rank_ends.read(running.launch.ranks_dir))
    supervise.forget(running.launch.token)
    stops.unregister(running.pid)
    supervise.reap_orphans()
    running.close_pidfd()  # once: a stop from another thread may have closed it already
    return leftovers


def _launch_error(run: CellRun, launch, e: Exception, host: str, log_dir: str, started_at: str) -> RunResult:
    """An `error` row: crashmatrix could not start the cell's program."""
    cell_files.release(launch.env)
    if isinstance(e, OSError) and e.filename in (launch.stdout_path, launch.stderr_path):
        # Its log files could not be made: the run directory's fault, not the program's.
        raise RunDirUnwritable(launch.env["CRASHMATRIX_RUN_DIR"], e) from None
    return RunResult(
        cell_id=run.cell.cell_id,
        repeat=run.repeat,
        values=run.cell.values,
        node=run.node,
        outcome=Outcome.ERROR.value,
        error=f"cannot launch {launch.argv[0]}: {getattr(e, 'strerror', None) or e}",
        host=host,
        signature=LAUNCH_ERROR,
        log_dir=log_dir,
        started_at=started_at,
        argv=tuple(launch.argv),
        cwd=launch.cwd,
    )


class Engine:
    """Runs CellRuns of one matrix, each in its cell directory of `store`, calling on_result for each.
    jobs: runs at a time, at most one per GPU of `gpus` (its CUDA_VISIBLE_DEVICES). install_signals:
    catch stop_signals while running (main thread only); else a stop is the caller's (bisect's
    stops.stop_everything()). stop_starting: asked after every result; once true no run starts, the
    running ones end normally. stops: the session's StopRegistry; by default the engine's own. build:
    what starts a run (crashmatrix.process.launch.build_launch, the default); the Hydra launcher gives its own."""

    def __init__(
        self,
        matrix: Matrix,
        *,
        store: RunDir,
        on_result,
        jobs: int = 1,
        install_signals: bool = True,
        gpus: list[str] | None = None,
        stop_signals: tuple = (signal.SIGINT, signal.SIGTERM),
        stop_starting=None,
        stops: StopRegistry | None = None,
        build=None,
    ):
        self.matrix = matrix
        self.run_dir = store.path
        self.make_cell_dir = store.make_cell_dir
        self.relative_to_run = store.relative_to_run
        self.on_result = on_result
        self.jobs = max(1, jobs)
        # One GPU per running cell: a cell takes a free id and gives it back when it ends.
        self.free_gpus: list[str] | None = list(gpus) if gpus else None
        if self.free_gpus is not None:
            self.jobs = min(self.jobs, len(self.free_gpus))
        self.install_signals = install_signals and threading.current_thread() is threading.main_thread()
        self.stop_signals = stop_signals
        self.interrupted: str | None = None
        self.stop_starting = stop_starting or (lambda: False)
        self.stopped_early = False
        self.stops = stops if stops is not None else StopRegistry()
        self.host, self.build = socket.gethostname(), build or build_launch

    # --- one run ------------------------------------------------------------

    def _start(self, run: CellRun) -> _Slot | RunResult:
        """Start one run: its slot, or its `error` row when the program could not be started."""
        cell_dir = self.make_cell_dir(run)
        side_by_side.starting(cell_dir)
        started_at = time.strftime("%Y-%m-%dT%H:%M:%S")
        gpu = self.free_gpus.pop(0) if self.free_gpus else None
        launch = self.build(self.matrix, run, cell_dir, self.run_dir, gpu)
        with self.stops.launching():
            return self._launch(run, launch, cell_dir, started_at, gpu)

    def _launch(self, run: CellRun, launch, cell_dir: str, started_at: str, gpu) -> _Slot | RunResult:
        try:
            running = supervise.start(launch, self.matrix.timeout)
        except (OSError, ValueError) as e:
            if gpu is not None and self.free_gpus is not None:
                self.free_gpus.append(gpu)
            return _launch_error(run, launch, e, self.host, self.relative_to_run(cell_dir), started_at)
        if not self.stops.register(running):  # stop_everything() ran while this launch was under way
            supervise.signal_all(supervise.tree(running.pid, running.launch.token), signal.SIGKILL)
        evidence = Evidence(
            running.pid, running.started, oom_counter=cgroup_oom_counter(running.pid), cell_dir=cell_dir
        )
        return _Slot(run, cell_dir, running, started_at, gpu, evidence)

    def _finish(self, slot: _Slot) -> RunResult:
        running = slot.running
        rc = running.popen.wait()
        duration = time.monotonic() - running.started
        if slot.gpu is not None and self.free_gpus is not None:
            self.free_gpus.append(slot.gpu)
        if rc != 0 and not running.timed_out:  # a failed job's ranks left running: where they were, first
            from crashmatrix.verdict import forensics  # when a cell fails, not before

            forensics.ask_survivors(running.pid, running.launch.token, slot.cell_dir)
        leftovers = _end_tree(running, self.matrix.kill_grace, self.stops)
        report = read_report(os.path.join(slot.cell_dir, "report.json"))
        metrics = _cell_metrics(slot, report)
        rc, stdout, stderr, first = _judged(slot, rc)
        verdict = _verdict(slot, rc, stderr, stdout, report, self.matrix.timeout, first, self.matrix.inject)
        slot.evidence.stderr = stderr
        at_exit = _died_at_exit(slot, verdict, report, rc)  # asked once: a rank's end is read from its files
        verdict, own = _failed_before_its_exit(slot, verdict, (stderr, stdout), report, at_exit, self.matrix, first)
        verdict, where = _forensics(self, slot, verdict, stderr, rc if own is None else own, at_exit and own is None)
        rank_speed.cleanup(slot.cell_dir)  # read for the metrics and the verdict; kept in result.json
        cell_files.release(running.launch.env)
        exit_code = rc if (rc is not None and rc >= 0 and not running.timed_out) else None
        return RunResult(
            cell_id=slot.run.cell.cell_id,
            repeat=slot.run.repeat,
            values=slot.run.cell.values,
            node=slot.run.node,
            outcome=verdict.outcome.value,
            signal=verdict.signal,
            exit_code=exit_code,
            error=verdict.error,
            signature=verdict.signature,
            duration_s=duration,
            host=self.host,
            log_dir=self.relative_to_run(slot.cell_dir),
            where=where,
            rank=verdict.rank,
            metrics=dict(metrics, **_gpu_and_node(slot.gpu, first)),
            leftovers=tuple(leftovers),
            started_at=slot.started_at,
            argv=tuple(running.launch.argv),
            cwd=running.launch.cwd,
            stderr_at_kill=slot.evidence.stderr_at_kill if running.timed_out else None,
        )

    # --- the loop -----------------------------------------------------------

    def run(self, runs: list[CellRun]) -> ExecutorOutcome:
        """How the runs ended; a stop signal ends them early (completed False), the finished ones recorded."""
        was_subreaper = supervise.set_subreaper(True)
        wake_r, wake_w = os.pipe()
        os.set_blocking(wake_r, False)
        os.set_blocking(wake_w, False)
        try:
            with self._catching_stops(wake_w):
                completed = self._run_all(list(reversed(runs)), wake_r)
            return ExecutorOutcome(completed, self.interrupted, self.stopped_early)
        finally:
            os.close(wake_r)
            os.close(wake_w)
            # Cells still running in this process (bisect's other threads) need their orphans adopted and reaped.
            others_running = bool(supervise.owned_pids())
            if was_subreaper is False and not others_running:
                supervise.reap_orphans()
                supervise.set_subreaper(False)

    def _catching_stops(self, wake_w: int):
        if not self.install_signals:
            return contextlib.nullcontext()

        def on_stop(name: str) -> None:
            self.interrupted = name

        return interrupts.catching(self.stop_signals, on_stop, wakeup_fd=wake_w)

    def _run_all(self, pending: list[CellRun], wake_r: int) -> bool:
        """Start runs as slots free up, tend the running ones, until none is left or a stop arrives."""
        slots: dict[int, _Slot] = {}
        try:
            while (pending or slots) and not self.interrupted:
                self._start_more(pending, slots)
                if not slots:
                    if self.stopped_early:
                        break
                    if pending and not side_by_side.may_start(side_by_side.of_matrix(self.matrix)):
                        side_by_side.wait_turn(0.5)  # another engine's cell runs (bisect's threads)
                    continue
                _wait(slots, wake_r, self.matrix.kill_grace)
                self._tend(slots, wake_r, pending)
        except Exception:
            # A result that cannot be recorded (a full disk) ends the run: no cell may outlive it.
            self.stops.end([s.running for s in slots.values()])
            raise
        finally:
            side_by_side.forget(self)
        if self.interrupted:
            self.stops.end([s.running for s in slots.values()])
            return False
        return True

    def _start_more(self, pending: list[CellRun], slots: dict[int, _Slot]) -> None:
        if pending and not self.stopped_early and self.stop_starting():
            self.stopped_early = True
        while pending and len(slots) < self.jobs and not self.interrupted and not self.stopped_early:
            if not side_by_side.may_start(side_by_side.of_matrix(self.matrix)):
                break
            started = self._start(pending.pop())
            if isinstance(started, RunResult):
                self.on_result(started)
            else:
                slots[started.running.pid] = started
                side_by_side.began(started.running.pid, self)

    def _tend(self, slots: dict[int, _Slot], wake_r: int, pending: list[CellRun]) -> None:
        """Record the runs that ended; stop those past their timeout (SIGTERM), then past the grace (SIGKILL)."""
        now = time.monotonic()
        for pid, slot in list(slots.items()):
            running = slot.running
            if running.popen.poll() is not None:
                # without our handlers no stop of ours can follow: nothing to wait for
                if self.install_signals and _killed_from_outside(running) and _interrupt_follows(self, wake_r):
                    return  # the same stop reached the cell first: it was in flight, not a crash
                del slots[pid]
                result = self._finish(slot)
                if not _runs_again_alone(self.matrix, slot, result, pending):
                    self.on_result(result)
            elif running.deadline is not None and now >= running.deadline and running.term_sent_at is None:
                running.timed_out = True
                _where_it_hangs(slot)
                running.term_sent_at = time.monotonic()
                supervise.signal_all(supervise.tree(running.pid, running.launch.token), signal.SIGTERM)
            elif running.term_sent_at is not None and now >= running.term_sent_at + self.matrix.kill_grace:
                supervise.signal_all(supervise.tree(running.pid, running.launch.token), signal.SIGKILL)


def _interrupt_follows(engine: Engine, wake_r: int, within: float = 1.0) -> bool:
    """A scheduler's scancel or preemption signals every process of the job at once, cells included.

    A cell killed by SIGTERM/SIGINT/SIGKILL that we did not send may be the
    first sign of our own interruption: give that signal a moment to arrive
    before the death is recorded as the cell's crash.
    """
    end = time.monotonic() + within
    poller = select.poll()
    poller.register(wake_r, select.POLLIN)
    while not engine.interrupted and time.monotonic() < end:
        poller.poll(max(1, int((end - time.monotonic()) * 1000)))
        _drain(wake_r)
    return engine.interrupted is not None


def _runs_again_alone(matrix: Matrix, slot: _Slot, result: RunResult, pending: list[CellRun]) -> bool:
    """Whether the run failed for a neighbour's port, not its values (side_by_side): then it runs next, alone."""
    failed = counts_as_failing(result.outcome)
    why = side_by_side.ended(
        slot.running.pid, side_by_side.of_matrix(matrix), failed, slot.evidence.stderr, slot.cell_dir
    )
    if why is None:
        return False
    pending.append(slot.run)
    print(
        f"crashmatrix: {result.log_dir} {why}: it runs again alone, and this matrix's cells one at a time", flush=True
    )
    return True


def _killed_from_outside(running: supervise.Running) -> bool:
    """Ended by a stop signal that we did not send."""
    return running.term_sent_at is None and running.popen.returncode in (
        -signal.SIGTERM,
        -signal.SIGINT,
        -signal.SIGKILL,
    )


def _wait(slots: dict[int, _Slot], wake_r: int, kill_grace: float) -> None:
    """Sleep until a cell ends, a signal arrives, or the next timeout or kill grace is due."""
    now = time.monotonic()
    deadlines = []
    for slot in slots.values():
        running = slot.running
        if running.term_sent_at is not None:
            deadlines.append(running.term_sent_at + kill_grace)
        elif running.deadline is not None:
            deadlines.append(running.deadline)
    timeout = max(0.0, min(deadlines) - now) if deadlines else None
    fds = [s.running.pidfd for s in slots.values() if s.running.pidfd is not None]
    if len(fds) < len(slots):  # no pidfds here: poll
        timeout = 0.05 if timeout is None else min(timeout, 0.05)
    poller = select.poll()
    for fd in fds + [wake_r]:
        poller.register(fd, select.POLLIN)
    try:
        poller.poll(None if timeout is None else max(1, int(timeout * 1000) + 1))
    except InterruptedError:
        pass
    _drain(wake_r)


def _drain(wake_r: int) -> None:
    """Empty the non-blocking wake-up pipe the signal handlers write to."""
    try:
        while os.read(wake_r, 512):
            pass
    except (BlockingIOError, OSError):
        pass


def _judged(slot: _Slot, rc: int | None) -> tuple:
    """(return code, stdout, stderr, the rank or None) the verdict is told from: a distributed cell's
    Slurm task that failed first (its record, its own output); else, and at a timeout (the hang is the
    verdict), the cell's own process."""
    launch = slot.running.launch
    first = None
    if launch.ranks_dir is not None and not slot.running.timed_out:
        first = rank_ends.first_failure(
            rank_ends.read(launch.ranks_dir), lambda rank, stream: slurm_tasks.rank_log(slot.cell_dir, rank, stream)
        )
    if first is None:
        # at a timeout, what the program wrote before the kill: the ranks' reactions to it are not the hang
        at_kill = slot.evidence.stderr_at_kill if slot.running.timed_out else None
        stdout, stderr = read_ends(launch.stdout_path), read_ends(launch.stderr_path, at_kill)
        if not slot.running.timed_out and rc != 0:  # a failure the program reported its own way
            from crashmatrix.verdict import uncaught

            stderr = uncaught.told(stderr, stdout, slot.cell_dir, slot.running.pid, rc)
        return rc, stdout, stderr, None
    stderr = rank_ends.unlabelled(read_ends(first.stderr_path), first.rank)
    return first.returncode, read_ends(first.stdout_path), stderr, first


def _gpu_and_node(gpu: str | None, first: rank_ends.RankEnd | None) -> dict:
    """What a run's metrics add: its GPU set, and the node of a Slurm task whose failure is the verdict."""
    return {
        **({"gpu": gpu} if gpu is not None else {}),
        **({"rank_node": first.node} if first is not None else {}),
    }


def _died_at_exit(slot: _Slot, verdict, report: dict | None, rc: int | None) -> bool:
    """Whether the cell's verdict is a death by a fault's signal after its Python exit had run
    (verdict/exit_record.py's died_at_exit)."""
    from crashmatrix.verdict import exit_record

    return exit_record.died_at_exit(slot.cell_dir, verdict, report, rc)


def _failed_before_its_exit(slot: _Slot, verdict, output: tuple[str, str], report, at_exit, matrix, first) -> tuple:
    """(the verdict, the exit status the program's own failure gave) where the main process died by a fault's
    signal at exit (at_exit) after failing on its own (its uncaught exception, or its sys.exit(N) while handling
    an exception whose traceback it printed, recorded under inject: verdict/exit_record.py): that failure is the
    verdict, its error ending `then killed by SIGSEGV at exit`. (verdict, None) otherwise."""
    from crashmatrix.verdict import exit_record
    from crashmatrix.verdict.classify import then_killed

    if verdict.rank is not None or not at_exit:
        return verdict, None
    code = exit_record.own_failure_status(slot.cell_dir, slot.evidence.pid, printed="\n".join(output))
    if code is None:
        return verdict, None
    failed = _verdict(slot, code, output[0], output[1], report, matrix.timeout, first)
    return then_killed(failed, verdict.signal), code


def _verdict(slot: _Slot, rc, stderr: str, stdout: str, report: dict | None, timeout_s, first, inject: bool = False):
    """classify's verdict on an ended run, with what its ranks recorded where it was a distributed job.
    first: the Slurm task that failed first, whose own end and output were classified: its rank is the
    verdict's, and its death by a signal a rank's (rank_crash), as for ranks a launcher started. So is the
    death of a main process that was itself a rank (Lightning's ddp makes it rank 0). inject: the in-cell
    recorder was there, whose report tells a death at exit (classify's exit_recorded)."""
    from crashmatrix.verdict.classify import classify  # when the first cell ends, not before it starts
    from crashmatrix.verdict.ranks import recorded_ranks

    recorded = recorded_ranks(slot.cell_dir)
    if _killed_itself_for_a_rank(slot, rc, stderr, recorded):
        rc = 1  # its death is the launcher's reaction: read the run as a failed job, whose first failure is a rank's
    verdict = classify(
        rc,
        timed_out=slot.running.timed_out,
        stderr=stderr,
        stdout=stdout[-HEAD_BYTES:],
        report=report,
        timeout_s=timeout_s,
        recorded=recorded,
        exit_recorded=inject,
    )
    if first is not None:
        rank = first.rank
    elif verdict.rank is not None and (own := _main_failed_on_its_own(slot, verdict, recorded)):
        return dataclasses.replace(verdict, rank=None, told=own)  # placed by its own traceback, not a rank's alike
    elif verdict.outcome == Outcome.CRASH:
        rank = next((r.rank for r in recorded if r.pid == slot.running.pid), None)
    else:
        return verdict
    if rank is None:
        return verdict
    outcome = Outcome.RANK_CRASH if verdict.outcome == Outcome.CRASH else verdict.outcome
    return dataclasses.replace(verdict, outcome=outcome, rank=rank)


def _main_failed_on_its_own(slot: _Slot, verdict, recorded) -> str:
    """The main process's own uncaught exception, as recorded, where it is the failure told and the main is no
    rank: the parent of spawned ranks that all ended, failing after them (ranks.root_failure gives an unlabelled
    traceback to the rank that ended first, which is right only where a rank printed it); else ""."""
    from crashmatrix.verdict import uncaught

    if any(r.pid == slot.running.pid for r in recorded):
        return ""
    return uncaught.main_raised(slot.cell_dir, slot.running.pid, verdict.told)


def _killed_itself_for_a_rank(slot: _Slot, rc, stderr: str, recorded) -> bool:
    """The main process died by a signal it sent itself (verdict/exit_record.py) while another process of the
    job failed on its own first: Lightning's ddp, whose child observer SIGKILLs the main process (rank 0)
    once the rank it started (rank 1) has died. Rank 1's failure is the verdict; rank 0 is its victim."""
    from crashmatrix.verdict import exit_record
    from crashmatrix.verdict.ranks import root_failure

    if rc is None or rc >= 0 or slot.running.timed_out:
        return False
    try:
        died_by = signal.Signals(-rc).name
    except ValueError:
        return False
    if not exit_record.killed_itself(slot.cell_dir, slot.running.pid, died_by):
        return False
    root = root_failure(stderr, recorded)
    return root is not None and root.pid is not None and root.pid != slot.running.pid


def _cell_metrics(slot: _Slot, report: dict | None) -> dict:
    """What the cell measured: its main process's report (with the memory it sampled, memory_file), with each
    rank's figures (rank_speed)."""
    own = memory_file.with_samples((report or {}).get("metrics") or {}, slot.cell_dir)
    return rank_speed.merged(own, rank_speed.read(slot.cell_dir))


def _where_it_hangs(slot: _Slot) -> None:
    """Where a timed-out run hangs, asked before the kill (bounded: a few seconds at most); and how much
    it had written to stderr by then."""
    from crashmatrix.verdict import forensics

    # First: a process with no other way to give its stacks writes them to stderr as it is ended
    # (forensics.abort_dumps), which is the kill's output, not the hang's.
    try:
        slot.evidence.stderr_at_kill = os.path.getsize(slot.running.launch.stderr_path)
    except OSError:
        pass
    slot.evidence.hang = forensics.collect(slot.running.pid, slot.running.launch.token, slot.cell_dir)


def _forensics(engine: Engine, slot: _Slot, verdict, stderr: str, rc, at_exit: bool) -> tuple:
    """forensics' verdict and `where` (where the output tells none: the main process's own sys.exit, os._exit
    or kill, verdict/exit_record.py; at_exit: a death after its Python exit had run, by the report it wrote then,
    where it is still the verdict), then a cuda_error's synchronous rerun (crashmatrix.verdict.sync_rerun)."""
    from crashmatrix.verdict import config_place, exit_record, forensics, hook_place, peers, sync_rerun
    from crashmatrix.verdict.classify import signed_by_place

    verdict, where = forensics.refine(verdict, slot.evidence)
    if not slot.running.timed_out:  # a rank's own collective timeout: where the rank it waited for was
        verdict, where = peers.at_collective_timeout(verdict, where, slot.cell_dir, stderr)
    if not where and verdict.outcome in (Outcome.FAIL, Outcome.CRASH) and not slot.running.timed_out:
        where = exit_record.place(slot.cell_dir, slot.evidence.pid, rc, verdict.signal)
        if not where and verdict.outcome is Outcome.FAIL and "Traceback (most recent call last)" not in stderr:
            where = exit_record.a_childs_exit(slot.cell_dir, slot.evidence.pid, rc)  # its SystemExit, raised again
    if not where and verdict.outcome is Outcome.RANK_CRASH and verdict.rank is not None:  # it printed nothing
        where = exit_record.rank_place(slot.cell_dir, verdict.rank, verdict.signal) or (
            exit_record.spawned_rank_signal_place(slot.cell_dir, slot.evidence.pid, verdict.signal)
        )
    if verdict.rank is not None and (code := exit_record.rank_exit_code(verdict)) is not None:
        where = (  # its sys.exit or os._exit, not the join
            exit_record.rank_place(slot.cell_dir, verdict.rank, "", code)
            or exit_record.spawned_rank_place(slot.cell_dir, slot.evidence.pid, code)
            or where
        )
    if not slot.running.timed_out:  # a worker that ended itself first: the main's words are its consequence
        verdict, where = exit_record.worker_ended_itself(verdict, where, slot.cell_dir, slot.evidence.pid, stderr)
        where = exit_record.child_killed_itself(verdict, where, slot.cell_dir, slot.evidence.pid)
    handled = exit_record.handled(slot.cell_dir, slot.evidence.pid)  # Hydra's instantiate error's own stack
    where = config_place.placed(verdict, where, stderr, engine.matrix, slot.running.launch.argv, handled)
    where = hook_place.placed(verdict, where, slot.cell_dir, slot.evidence.pid)
    if at_exit and verdict.signal and verdict.outcome in (Outcome.CRASH, Outcome.RANK_CRASH):
        verdict, where = exit_record.at_exit(verdict, where, stderr)
    verdict = signed_by_place(verdict, where)  # a death by signal: its class word and the program's frame
    forensics.cleanup(slot.cell_dir)

    def stopping() -> bool:  # Ctrl-C here, or stop_everything() from another thread: a rerun ends too
        return bool(engine.interrupted) or engine.stops.stopping

    where = sync_rerun.placed(engine.matrix, verdict, slot.running.launch, stderr, slot.cell_dir, where, stopping)
    return sync_rerun.signed(verdict, where, os.path.join(slot.cell_dir, sync_rerun.SYNC_DIR)), where
