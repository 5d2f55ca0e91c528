"""Ctrl-C and a scheduler's stop (SIGTERM, submitit's SIGUSR2) caught while a run goes on, then let go."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager


@contextmanager
def catching(signals, on_stop, wakeup_fd: int | None = None):
    """While inside, each of `signals` calls on_stop(name) ("SIGINT", ...) instead of ending the process.

    wakeup_fd (a non-blocking pipe's write end) gets a byte per signal, so a loop asleep in poll()
    wakes at once. Only the main thread can hold handlers: elsewhere this catches nothing. A signal
    already ignored is left ignored. The handlers that were there before come back on the way out.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        on_stop(signal.Signals(signum).name)

    # A signal this process was started with ignored (SIGINT of a job put in the background, SIGHUP
    # under nohup) stays ignored: the cells inherit that disposition, as the program alone would.
    ours = [sig for sig in signals if signal.getsignal(sig) is not signal.SIG_IGN]
    previous = {sig: signal.signal(sig, handler) for sig in ours}
    previous_wakeup = signal.set_wakeup_fd(wakeup_fd) if wakeup_fd is not None else None
    try:
        yield
    finally:
        if previous_wakeup is not None:
            signal.set_wakeup_fd(previous_wakeup)
        for sig, old in previous.items():
            signal.signal(sig, old)
