"""A process's uncaught exception as Python's own hook prints it, whatever the program prints instead.

A program may report its failure its own way: a `sys.excepthook` that prints a shortened, coloured report (the
message and the innermost frame only), or its stderr sent to its own log file. At the uncaught exception, told by
the audit event Python raises before it calls sys.excepthook (whichever hook is installed, the program's or
Python's own), the process records the exception as Python's default hook would print it, its chain, notes and
groups included (`<cell dir>/.stacks/uncaught-PID.txt`; verdict/uncaught.py reads the main process's). No hook
is replaced: the program's own runs and prints as it does alone. The same event tells the cell's main process
which hook of the program's LightningModule Lightning refused (incell/hook_place.py): one audit hook for both,
as every audit hook is called on every audited event. A thread's uncaught exception, which the program's own
threading.excepthook may print as one line, is recorded too (`thread-PID.txt`, the first only). Standard library
only.
"""

from __future__ import annotations

import os
import sys

from . import hook_place
from .atomic import write_text_atomic
from .stackdump import dump_dir

PREFIX = "uncaught-"
_MOST_CHARS = 256 * 1024  # a dispatcher's list of backends runs to a few kilobytes; the end is what tells


def install(main: bool) -> None:
    """Record this process's uncaught exception, in a cell (CRASHMATRIX_CELL_DIR); main: the cell's main process,
    which also records a refused Lightning hook's place."""
    cell_dir = os.environ.get("CRASHMATRIX_CELL_DIR")
    if not cell_dir:
        return

    def audit(event: str, args: tuple) -> None:
        if event != "sys.excepthook" or _python_below():
            return
        try:
            _hook, kind, value, tb = args
            _record(cell_dir, kind, value, tb)
            if main:
                hook_place.record(cell_dir, value, tb)
        except Exception:  # never in the way of the program's own report
            pass

    sys.addaudithook(audit)
    if main:
        _observe_threads(cell_dir)


THREAD_PREFIX = "thread-"  # the first thread's uncaught exception the program's own threading.excepthook took


def _observe_threads(cell_dir: str) -> None:
    """A thread's uncaught exception as threading's own hook prints it (`Exception in thread NAME:` and its
    traceback), where the program replaced threading.excepthook with one of its own (one line, no traceback, or
    nothing): Python raises no audit event for it. Each thread asks _make_invoke_excepthook for the function that
    calls the hook as it starts; that function is wrapped to record first, then to call the program's hook as
    before. Nothing is replaced that the program sees, and nothing is printed."""
    import threading

    make = getattr(threading, "_make_invoke_excepthook", None)
    if make is None:
        return

    def make_observed():
        invoke = make()

        def observed(thread):
            try:
                kind, value, tb = sys.exc_info()
                if threading.excepthook is not threading.__excepthook__ and kind is not SystemExit:
                    _record_thread(cell_dir, thread, kind, value, tb)
            except Exception:  # never in the way of the program's own report
                pass
            invoke(thread)

        return observed

    threading._make_invoke_excepthook = make_observed  # type: ignore[attr-defined]


def _record_thread(cell_dir: str, thread, kind, value, tb) -> None:
    import traceback

    path = os.path.join(dump_dir(cell_dir), f"{THREAD_PREFIX}{os.getpid()}.txt")
    if os.path.exists(path):  # the first thread's is the failure; those after it are its consequences
        return
    text = f"Exception in thread {thread.name}:\n" + "".join(traceback.format_exception(kind, value, tb))
    os.makedirs(dump_dir(cell_dir), exist_ok=True)
    write_text_atomic(path, text[-_MOST_CHARS:], durable=False)


def _python_below() -> bool:
    """Whether Python code is still running below this event: C code's own PyErr_Print while the program goes on
    (an embedded interpreter's PyRun_SimpleString, an extension's callback), not the process's last uncaught
    exception, at which no frame of Python's is left."""
    try:
        sys._getframe(2)  # 0: this function, 1: the audit hook
    except ValueError:
        return False
    return True


def _record(cell_dir: str, kind, value, tb) -> None:
    import traceback

    text = "".join(traceback.format_exception(kind, value, tb))
    os.makedirs(dump_dir(cell_dir), exist_ok=True)
    path = os.path.join(dump_dir(cell_dir), f"{PREFIX}{os.getpid()}.txt")
    write_text_atomic(path, text[-_MOST_CHARS:], durable=False)
