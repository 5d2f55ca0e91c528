"""Stopping a session's cells: the registry through which a stop from any thread ends them all, and
ExecutorOutcome, how running a list of cell runs ended.

A session that makes several Engines gives each the same StopRegistry: bisect makes one Engine per
test, in worker threads with --jobs, and its Ctrl-C arrives in the main thread, which must end the
cells of all of them. An Engine given none (run, hunt, a Slurm job: one Engine at a time, its own
signal handlers) keeps its own.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from crashmatrix.process import supervise
from crashmatrix.rundir import cell_files


@dataclass(frozen=True)
class ExecutorOutcome:
    """How running a list of cell runs ended, here (Engine.run) or through submitit (executors.run_submitted).

    completed: every run ended and was recorded (False when a stop signal ended them early).
    interrupted_by: that signal's name ("SIGINT", "SIGTERM", ...), or None. stopped_early: no new run
    started once the caller's stop_starting said so (--max-failures); the runs that had started ended
    normally.
    """

    completed: bool
    interrupted_by: str | None = None
    stopped_early: bool = False


class StopRegistry:
    """The cells a session has running, so that stop_everything() from any thread ends them all."""

    def __init__(self) -> None:
        self._live: dict[int, supervise.Running] = {}
        self._lock = threading.Lock()
        # .active while this thread launches a cell; .deferred: the stop that came meanwhile
        self._launch = threading.local()
        self._stopping = False

    @property
    def stopping(self) -> bool:
        """stop_everything() has run: whatever still runs in this session is being ended."""
        return self._stopping

    def register(self, running: supervise.Running) -> bool:
        """Keep `running` where stop_everything() finds it. False when stop_everything() already ran: a launch
        that was under way in another thread missed its snapshot, and the caller must end this tree at once."""
        with self._lock:
            self._live[running.pid] = running
            return not self._stopping

    def unregister(self, pid: int) -> None:
        """`pid`'s tree has ended: stop_everything() leaves it out."""
        with self._lock:
            self._live.pop(pid, None)

    @contextmanager
    def launching(self) -> Iterator[None]:
        """Around one launch in this thread: interrupt_or_defer() holds its stop until the cell is registered,
        then raises it here as KeyboardInterrupt."""
        self._launch.active = True
        try:
            yield
        finally:
            self._launch.active = False
            deferred, self._launch.deferred = getattr(self._launch, "deferred", None), None
            if deferred:
                raise KeyboardInterrupt(deferred)

    def interrupt_or_defer(self, name: str) -> None:
        """A stop handler for searches that end by KeyboardInterrupt (bisect): raised at once, or, in the
        middle of a launch, right after the new cell is registered where stop_everything() finds it (raised
        between the fork and the registration, the cell would run on unseen)."""
        if getattr(self._launch, "active", False):
            self._launch.deferred = name
            return
        raise KeyboardInterrupt(name)

    def stop_everything(self) -> None:
        """From any thread: end every tree of this session, and from now on any launch that registers
        afterwards (a worker thread's launch under way misses this snapshot)."""
        with self._lock:
            self._stopping = True
            runnings = list(self._live.values())
        self.end(runnings)

    def end(self, runnings: list[supervise.Running], grace: float = 0.8) -> None:
        """End every given tree within about a second (SIGTERM, then SIGKILL), reap it, forget it."""
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
            running.close_pidfd()
            self.unregister(running.pid)
        supervise.reap_orphans()
