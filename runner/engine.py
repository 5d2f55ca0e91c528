"""Running cell runs: N at a time, each a supervised fresh process, each result recorded as it ends.

The loop waits on pidfds (and a self-pipe for signals), so a finished cell is
seen at once rather than at the next poll. Ctrl-C or SIGTERM stops every
running tree (SIGTERM, a grace of at most 1 s, SIGKILL), keeps what finished,
and reports the run as interrupted. What starts a cell is runner.launch; what
it left is read by runner.cell_logs and judged by classify and forensics.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import threading
import time
from dataclasses import dataclass

from crashmatrix import cell_files, forensics, interrupts, supervise, sync_rerun
from crashmatrix.cell import CellRun
from crashmatrix.cell_logs import HEAD_BYTES, read_ends, read_report
from crashmatrix.classify import classify
from crashmatrix.launch import build_launch
from crashmatrix.signature import LAUNCH_ERROR
from crashmatrix.spec import Matrix
from crashmatrix.store import RunDir, RunResult
from crashmatrix.unwritable import RunDirUnwritable

# Every tree started in this process, so an interrupt from any thread can end them all.
_LIVE: dict[int, supervise.Running] = {}
_LIVE_LOCK = threading.Lock()
_LAUNCH = threading.local()  # .active while this thread launches a cell; .deferred: a stop that came then
_STOPPING_ALL = False  # set by stop_everything(): a launch that registers afterwards is ended at once


@dataclass
class _Slot:
    run: CellRun
    cell_dir: str
    running: supervise.Running
    started_at: str
    gpu: str | None
    evidence: forensics.Evidence


def _end_tree(running: supervise.Running, kill_grace: float) -> list[str]:
    """Whatever the cell left behind (a setsid'd grandchild, wandb-core) dies now; what had to be killed."""
    grace = min(kill_grace, 1.0) if running.term_sent_at is None else 0.0
    leftovers = supervise.kill_tree(running.launch.token, grace)
    supervise.forget(running.launch.token)
    with _LIVE_LOCK:
        _LIVE.pop(running.pid, None)
        keep = set(_LIVE)
    supervise.reap_orphans(keep)
    if running.pidfd is not None:
        os.close(running.pidfd)
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
        outcome="error",
        error=f"cannot launch {launch.argv[0]}: {getattr(e, 'strerror', None) or e}",
        host=host,
        signature=LAUNCH_ERROR,
        log_dir=log_dir,
        started_at=started_at,
        argv=tuple(launch.argv),
    )


class Engine:
    """Runs CellRuns of one matrix, each in its cell directory of `store`, calling on_result for each."""

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
        # Asked after every result (--max-failures): once true, no new run starts; running ones end normally.
        self.stop_starting = stop_starting or (lambda: False)
        self.stopped_early = False
        self.host = socket.gethostname()

    # --- one run ------------------------------------------------------------

    def _start(self, run: CellRun) -> _Slot | RunResult:
        cell_dir = self.make_cell_dir(run)
        started_at = time.strftime("%Y-%m-%dT%H:%M:%S")
        gpu = self.free_gpus.pop(0) if self.free_gpus else None
        launch = build_launch(self.matrix, run, cell_dir, self.run_dir, gpu)
        _LAUNCH.active = True
        try:
            return self._launch(run, launch, cell_dir, started_at, gpu)
        finally:
            _LAUNCH.active = False
            deferred, _LAUNCH.deferred = getattr(_LAUNCH, "deferred", None), None
            if deferred:  # a stop that came mid-launch, now that the cell is registered and can be stopped
                raise KeyboardInterrupt(deferred)

    def _launch(self, run: CellRun, launch, cell_dir: str, started_at: str, gpu) -> _Slot | RunResult:
        try:
            running = supervise.start(launch, self.matrix.timeout)
        except (OSError, ValueError) as e:
            if gpu is not None and self.free_gpus is not None:
                self.free_gpus.append(gpu)
            return _launch_error(run, launch, e, self.host, self.relative_to_run(cell_dir), started_at)
        with _LIVE_LOCK:
            _LIVE[running.pid] = running
            refused = _STOPPING_ALL
        if refused:  # stop_everything() ran while this launch was under way (another thread): end it too
            supervise.signal_all(supervise.tree(running.pid, running.launch.token), signal.SIGKILL)
        evidence = forensics.Evidence(
            running.pid, running.started, oom_counter=forensics.cgroup_oom_counter(running.pid)
        )
        return _Slot(run, cell_dir, running, started_at, gpu, evidence)

    def _finish(self, slot: _Slot) -> RunResult:
        running = slot.running
        rc = running.popen.wait()
        duration = time.monotonic() - running.started
        if slot.gpu is not None and self.free_gpus is not None:
            self.free_gpus.append(slot.gpu)
        leftovers = _end_tree(running, self.matrix.kill_grace)
        report = read_report(os.path.join(slot.cell_dir, "report.json"))
        stderr = read_ends(running.launch.stderr_path)
        verdict = classify(
            rc,
            timed_out=running.timed_out,
            stderr=stderr,
            stdout=read_ends(running.launch.stdout_path)[-HEAD_BYTES:],
            report=report,
            timeout_s=self.matrix.timeout,
        )
        slot.evidence.stderr = stderr
        verdict, where = _forensics(self, slot, verdict, stderr)
        cell_files.release(running.launch.env)
        exit_code = rc if (rc is not None and rc >= 0 and not running.timed_out) else None
        return RunResult(
            cell_id=slot.run.cell.cell_id,
            repeat=slot.run.repeat,
            values=slot.run.cell.values,
            outcome=verdict.outcome.value,
            signal=verdict.signal,
            exit_code=exit_code,
            error=verdict.error,
            signature=verdict.signature,
            duration_s=duration,
            host=self.host,
            log_dir=self.relative_to_run(slot.cell_dir),
            where=where,
            metrics=dict((report or {}).get("metrics") or {}, **({"gpu": slot.gpu} if slot.gpu is not None else {})),
            leftovers=tuple(leftovers),
            started_at=slot.started_at,
            argv=tuple(running.launch.argv),
        )

    # --- the loop -----------------------------------------------------------

    def run(self, runs: list[CellRun]) -> bool:
        """True when every run ended; False when interrupted (finished runs are kept)."""
        was_subreaper = supervise.set_subreaper(True)
        wake_r, wake_w = os.pipe()
        os.set_blocking(wake_r, False)
        os.set_blocking(wake_w, False)
        try:
            with self._catching_stops(wake_w):
                return self._run_all(list(reversed(runs)), wake_r)
        finally:
            os.close(wake_r)
            os.close(wake_w)
            with _LIVE_LOCK:
                others_running = bool(_LIVE)
            if was_subreaper is False and not others_running:
                supervise.reap_orphans(set())
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
                    continue
                _wait(slots, wake_r, self.matrix.kill_grace)
                self._tend(slots, wake_r)
        except Exception:
            # A result that cannot be recorded (a full disk) ends the run: no cell may outlive it.
            stop_running([s.running for s in slots.values()])
            raise
        if self.interrupted:
            stop_running([s.running for s in slots.values()])
            return False
        return True

    def _start_more(self, pending: list[CellRun], slots: dict[int, _Slot]) -> None:
        if pending and not self.stopped_early and self.stop_starting():
            self.stopped_early = True
        while pending and len(slots) < self.jobs and not self.interrupted and not self.stopped_early:
            started = self._start(pending.pop())
            if isinstance(started, RunResult):
                self.on_result(started)
            else:
                slots[started.running.pid] = started

    def _tend(self, slots: dict[int, _Slot], wake_r: int) -> None:
        """Record the runs that ended; stop those past their timeout (SIGTERM), then past the grace (SIGKILL)."""
        now = time.monotonic()
        for pid, slot in list(slots.items()):
            running = slot.running
            if running.popen.poll() is not None:
                # without our handlers no stop of ours can follow: nothing to wait for
                if self.install_signals and _killed_from_outside(running) and self._interrupt_follows(wake_r):
                    return  # the same stop reached the cell first: it was in flight, not a crash
                del slots[pid]
                self.on_result(self._finish(slot))
            elif running.deadline is not None and now >= running.deadline and running.term_sent_at is None:
                running.timed_out = True
                # Where it hangs, asked before the kill (bounded: a few seconds at most).
                slot.evidence.hang = forensics.collect(running.pid, running.launch.token, slot.cell_dir)
                running.term_sent_at = time.monotonic()
                supervise.signal_all(supervise.tree(running.pid, running.launch.token), signal.SIGTERM)
            elif running.term_sent_at is not None and now >= running.term_sent_at + self.matrix.kill_grace:
                supervise.signal_all(supervise.tree(running.pid, running.launch.token), signal.SIGKILL)

    def _interrupt_follows(self, wake_r: int, within: float = 1.0) -> bool:
        """A scheduler's scancel or preemption signals every process of the job at once, cells included.

        A cell killed by SIGTERM/SIGINT/SIGKILL that we did not send may be the
        first sign of our own interruption: give that signal a moment to arrive
        before the death is recorded as the cell's crash.
        """
        end = time.monotonic() + within
        poller = select.poll()
        poller.register(wake_r, select.POLLIN)
        while not self.interrupted and time.monotonic() < end:
            poller.poll(max(1, int((end - time.monotonic()) * 1000)))
            _drain(wake_r)
        return self.interrupted is not None


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


def stop_running(runnings: list[supervise.Running], grace: float = 0.8) -> None:
    """End every given tree within about a second: SIGTERM, then SIGKILL."""
    for running in runnings:
        supervise.signal_all(supervise.tree(running.pid, running.launch.token), signal.SIGTERM)
    end = time.monotonic() + grace
    while time.monotonic() < end and any(running.popen.poll() is None for running in runnings):
        time.sleep(0.02)
    for running in runnings:
        supervise.signal_all(supervise.tree(running.pid, running.launch.token), signal.SIGKILL)
    for running in runnings:
        try:
            running.popen.wait(timeout=2)
        except Exception:
            pass
        supervise.kill_tree(running.launch.token, 0.0)
        supervise.forget(running.launch.token)
        cell_files.release(running.launch.env)
        if running.pidfd is not None:
            try:
                os.close(running.pidfd)
            except OSError:
                pass
        with _LIVE_LOCK:
            _LIVE.pop(running.pid, None)
    supervise.reap_orphans(set(_LIVE))


def interrupt_or_defer(name: str) -> None:
    """A stop handler for searches that end by KeyboardInterrupt (bisect): raised at once, or, in the
    middle of a launch, right after the new cell is registered where stop_everything() finds it (raised
    between the fork and the registration, the cell would run on unseen)."""
    if getattr(_LAUNCH, "active", False):
        _LAUNCH.deferred = name
        return
    raise KeyboardInterrupt(name)


def _forensics(engine: Engine, slot: _Slot, verdict, stderr: str) -> tuple:
    """forensics' verdict and `where`, then a cuda_error's synchronous rerun (runner.sync_rerun)."""
    verdict, where = forensics.refine(verdict, slot.evidence)
    forensics.cleanup(slot.cell_dir)

    def stopping() -> bool:  # Ctrl-C here, or stop_everything() from another thread: a rerun ends too
        return bool(engine.interrupted) or _STOPPING_ALL

    launch = slot.running.launch
    return verdict, sync_rerun.placed(engine.matrix, verdict, launch, stderr, slot.cell_dir, where, stopping)


def stop_everything() -> None:
    """From any thread (e.g. bisect's Ctrl-C): end every tree this process started, and any launch that a
    worker thread has under way (it registers after this snapshot), until allow_starts()."""
    global _STOPPING_ALL
    with _LIVE_LOCK:
        _STOPPING_ALL = True
        runnings = list(_LIVE.values())
    stop_running(runnings)


def allow_starts() -> None:
    """Undo stop_everything() for the next search in this process (the Python API may bisect again)."""
    global _STOPPING_ALL
    with _LIVE_LOCK:
        _STOPPING_ALL = False
