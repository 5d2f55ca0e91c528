"""Where a process ended itself without a word: `sys.exit(3)`, `os._exit(3)`, `os.kill(os.getpid(), SIGKILL)`.

Such an end prints no traceback and runs no signal handler, so stderr holds no place for the row's `where`.
The cell's main process records the stack of each such call, as a traceback's text, beside its stack
dumps (`<cell dir>/.stacks/exit-PID.txt`, read and removed by the controller: verdict/exit_record.py),
before the call goes on unchanged. The controller uses it only where nothing else placed the failure and the recorded end is the
one the process met (the same exit code, or the same signal): a SystemExit the program caught, or an exit
0, says nothing.

How each is seen, so the program behaves as it does alone:
- a signal sent to itself: an audit hook on `os.kill`, `os.killpg` and `signal.pthread_kill` (it only
  reads the event);
- a multiprocessing child dead by a signal its parent did not send (a pool worker the OOM killer ended): the
  parent's `Popen.poll` is wrapped to note the status it read, and `_send_signal` to note what it sent itself
  (`reaped-PID.txt`, signal only: the child said nothing);
- `sys.exit` and `os._exit`: each is wrapped by a function that writes the record, then calls the original
  with the same argument. A `sys.exit` called while an exception is handled also records that exception's
  traceback, with its chain (`handled-PID.txt`): the cause a wrapper printed only the message of. A SystemExit's traceback, if the program catches and prints it, has one frame of
  ours more; `raise SystemExit(3)` and `exit(3)` are not seen (they raise without a call to wrap).

Processes this one forks (DataLoader workers) inherit the wrappers and the hook, and record their own ends
under their own pid (a spawned one installs them anew): a worker that gives up with `sys.exit(2)` in a
Dataset's `__getitem__` is placed at that line (verdict/exit_record.py's children_ends). multiprocessing's own
calls that only pass a process's status on (popen_fork's `os._exit(code)` after the worker's SystemExit,
spawn's `sys.exit(exitcode)`) are not its place and record nothing. Standard library only (incell/__init__.py).
"""

from __future__ import annotations

import os
import signal
import sys
import traceback

from . import importhook
from .stackdump import dump_dir

PREFIX = "exit-"
HANDLED = "handled-"  # the exception being handled at a sys.exit: `<dump dir>/handled-PID.txt`
HANDLED_CHAIN = "handled-chain-"  # ... as Python prints it, its chain and all: `<dump dir>/handled-chain-PID.txt`
REAPED = "reaped-"  # a child this process reaped, dead by a signal it did not send: `<dump dir>/reaped-PID.txt`
_KILLS = frozenset({"os.kill", "os.killpg", "signal.pthread_kill"})


def install() -> None:
    """Record this process's own ends, in a cell (CRASHMATRIX_CELL_DIR)."""
    cell_dir = os.environ.get("CRASHMATRIX_CELL_DIR")
    if not cell_dir:
        return
    directory = dump_dir(cell_dir)

    def record(call: str, frame) -> None:
        if _passed_on(frame):
            return
        try:
            stack = "".join(traceback.format_stack(frame))
            path = os.path.join(directory, f"{PREFIX}{os.getpid()}.txt")  # a forked worker's own
            _write(path, f"Traceback (most recent call last):\n{stack}{call}\n")
        except Exception:  # never in the way of the program's own end
            pass

    real_exit, real_os_exit = sys.exit, os._exit

    # An exit 0 is no failure to place, but in a multiprocessing child (a DataLoader worker) the program's own
    # exit mid-epoch is its parent's failure: `exited unexpectedly`, whatever the status.
    def exit(status=None):  # noqa: A001  (sys.exit's own name, as a caught traceback shows it)
        code = _code(status)
        if code or _in_multiprocessing_child():
            record(f"SystemExit: {code}", sys._getframe(1))
            if code:
                _record_handled(directory, sys.exc_info()[1])
        real_exit(status)

    def _exit(status):
        code = _code(status)
        if code or _in_multiprocessing_child():
            record(f"os._exit: {code}", sys._getframe(1))
        real_os_exit(status)

    def audit(event: str, args: tuple) -> None:
        if event not in _KILLS:
            return
        target, signum = args
        pid = os.getpid()
        if event == "os.kill":
            own = target == pid
        elif event == "os.killpg":
            own = target in (0, os.getpgid(0))
        else:
            own = True  # signal.pthread_kill: always a thread of this process
        if own and signum:
            record(f"signal: {_signal_name(signum)}", sys._getframe(1))

    sys.exit, os._exit = exit, _exit
    sys.addaudithook(audit)
    _watch_children(directory)


def _watch_children(directory: str) -> None:
    """Record a multiprocessing child that died by a signal this process did not send it, as its status is read
    (`Popen.poll`, under every is_alive, join and wait): a pool worker the kernel's OOM killer ended leaves no word
    of its own, and concurrent.futures then says only `BrokenProcessPool`. Only read: the status, the signal
    sent and the return values are as they were. fork's and spawn's Popen share one poll; forkserver's reads
    the status from the fork server with its own, patched once the program imports it (never early)."""
    try:
        from multiprocessing import popen_fork
    except Exception:  # noqa: BLE001  a platform without fork
        return
    popen = popen_fork.Popen
    _watch_poll(popen, directory)
    real_send = getattr(popen, "_send_signal", None)
    if real_send is not None:

        def _send_signal(self, sig):
            self._crashmatrix_sent = sig  # the parent's own terminate() or kill(): no death to tell
            return real_send(self, sig)

        popen._send_signal = _send_signal  # type: ignore[attr-defined]
    importhook.after_import(
        "multiprocessing.popen_forkserver", lambda module: _watch_poll(module.Popen, directory), lambda *_: None
    )


def _watch_poll(popen, directory: str) -> None:
    real_poll = popen.__dict__["poll"]

    def poll(self, *args, **kwargs):
        code = real_poll(self, *args, **kwargs)
        if code is not None and code < 0 and not getattr(self, "_crashmatrix_reaped", False):
            self._crashmatrix_reaped = True
            if getattr(self, "_crashmatrix_sent", None) != -code:
                try:
                    _write(os.path.join(directory, f"{REAPED}{self.pid}.txt"), f"signal: {_signal_name(-code)}\n")
                except Exception:  # noqa: BLE001  never in the way of the program
                    pass
        return code

    popen.poll = poll


def _record_handled(directory: str, exception) -> None:
    """The exception being handled where the process exits (Hydra's run_and_report prints an instantiate
    error's message alone, then calls sys.exit(1) in its except block): its traceback, and where it was raised
    from another (Hydra's InstantiationException from the class's own error), the whole stack down to where
    that cause was raised, with the cause's line."""
    if exception is None:
        return
    try:
        cause = exception.__cause__
        if cause is not None and cause.__traceback__ is not None:  # `raise Wrapper(...) from e`: one stack,
            # from where the wrapper was caught down to where its cause was raised
            frames = traceback.format_tb(exception.__traceback__) + traceback.format_tb(cause.__traceback__)
            said = traceback.format_exception_only(cause)
            text = "Traceback (most recent call last):\n" + "".join(frames + said)
        else:
            text = "".join(traceback.format_exception(exception, chain=False))
        _write(os.path.join(directory, f"{HANDLED}{os.getpid()}.txt"), text)
        # as the default hook would have printed it, had the program not caught it: what it is read as where the
        # program's own exit reported it (verdict/uncaught.py), one signature with its uncaught self
        chain = "".join(traceback.format_exception(exception))
        _write(os.path.join(directory, f"{HANDLED_CHAIN}{os.getpid()}.txt"), chain)
    except Exception:  # noqa: BLE001  never in the way of the program's own end
        pass


# multiprocessing's own files, whose exit calls pass a process's status on (popen_fork.py, spawn.py, forkserver.py)
_MULTIPROCESSING = os.sep + "multiprocessing" + os.sep


def _passed_on(frame) -> bool:
    """Whether the exit is multiprocessing's own, ending a child with the status its target left."""
    return _MULTIPROCESSING in frame.f_code.co_filename


def _in_multiprocessing_child() -> bool:
    """Whether multiprocessing started this process (a forked or spawned worker): its parent_process is set."""
    process = sys.modules.get("multiprocessing.process")
    try:
        return process is not None and process.parent_process() is not None
    except Exception:  # noqa: BLE001  never in the way of the program's own end
        return False


def _code(status) -> int:
    """The exit code the interpreter makes of status: None is 0, an int itself, anything else (a message) 1."""
    if status is None:
        return 0
    return status if isinstance(status, int) else 1


def _signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return str(signum)


def _write(path: str, text: str) -> None:
    # whole or absent: the process may end (SIGKILL) right after
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
