"""`where` for a cell's main process that ended itself without a word (pure; never imports torch).

incell/last_exit.py records the stack of the main process's `sys.exit(N)`, `os._exit(N)` and signals sent to
itself, as a traceback's text ending in `SystemExit: 3`, `os._exit: 3` or `signal: SIGKILL`. It is the place
only where the record's end is the one the process met: the same exit code (not 0), or the signal it died
by. A SystemExit the program caught, then ended otherwise, is not its end.
"""

from __future__ import annotations

import dataclasses
import os
import re
import signal as signals
from collections.abc import Iterator

from crashmatrix.incell import rank_report
from crashmatrix.incell.last_exit import HANDLED, HANDLED_CHAIN, PREFIX, REAPED
from crashmatrix.incell.stackdump import dump_dir
from crashmatrix.incell.uncaught import PREFIX as UNCAUGHT
from crashmatrix.outcome import Outcome
from crashmatrix.verdict.classify import Verdict
from crashmatrix.verdict.exception_place import exception_place, last_traceback
from crashmatrix.verdict.parsed import read_output
from crashmatrix.verdict.ranks import recorded_ranks
from crashmatrix.verdict.signature import (
    AT_EXIT,
    CHILD_DIED_BY_SIGNAL,
    WORKER_EXITED,
    WORKER_LOST,
    WORKER_SIGNAL,
    signal_name,
    with_place,
)
from crashmatrix.verdict.stacks import is_programs

_END = re.compile(r"^(?:SystemExit|os\._exit): (?P<code>-?\d+)$|^signal: (?P<signal>\w+)$")


def _read(cell_dir: str, pid: int) -> tuple[str, re.Match | None]:
    return _read_file(os.path.join(dump_dir(cell_dir), f"{PREFIX}{pid}.txt"))


def _read_file(path: str) -> tuple[str, re.Match | None]:
    """A record's text and its end (its last line: `SystemExit: 3`, `signal: SIGKILL`)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return "", None
    return text, _END.match(text.rstrip("\n").rsplit("\n", 1)[-1])


def _met(end: re.Match | None, exit_code: int | None, signal: str) -> bool:
    """Whether the recorded end is the one the process met: the signal it died by, else its non-zero exit code."""
    if end is None:
        return False
    if signal:
        return end["signal"] == signal
    return end["code"] is not None and exit_code not in (None, 0) and int(end["code"]) == exit_code


def killed_itself(cell_dir: str, pid: int, signal: str) -> bool:
    """Whether pid's last recorded end is the signal it died by, sent by itself (Lightning's child observer
    SIGKILLs its own process once a rank it started has died)."""
    return bool(signal) and _met(_read(cell_dir, pid)[1], None, signal)


def children_ends(cell_dir: str, main_pid: int | None, workers_only: bool = False) -> list[tuple[int, int, str]]:
    """(pid, exit code, place) of each process but the main that ended itself (`sys.exit(2)` in a DataLoader
    worker's `__getitem__`; `os._exit(0)` in a multiprocessing child, whose parent then loses it), the first end
    first. workers_only: multiprocessing's children alone (a DataLoader worker, a pool's, a Process), whose stack
    runs from its _bootstrap; not a program the main ran (`subprocess.Popen([sys.executable, ...])`), whose exit
    the main reads or meets as any tool's (the sixty-eighth set's validator that refused its input and exited 1,
    whose writer then met a broken pipe: the writer's BrokenPipeError is the program's failure)."""
    return [
        (pid, int(end["code"]), exception_place(text))
        for pid, _prefix, text, end in _children_records(cell_dir, main_pid, (PREFIX,))
        if end["code"] is not None and (not workers_only or _MULTIPROCESSING_CHILD.search(text))
    ]


# a multiprocessing child's stack, forked or spawned: its Process._bootstrap runs what it was started for
_MULTIPROCESSING_CHILD = re.compile(r'multiprocessing[/\\]process\.py", line \d+, in _bootstrap$', re.M)


def a_childs_exit(cell_dir: str, main_pid: int | None, exit_code: int | None) -> str:
    """The place of a child process's own `sys.exit(N)` where the main then ended with that status N and printed no
    traceback: a process pool's worker, whose SystemExit concurrent.futures sends back, and the main's
    `future.result()` raises again, with nothing but its message printed (the thirty-third held-out set's
    hp_pool_trial_sys_exit); the first such child's. "" where none matches."""
    if not exit_code:
        return ""
    for _pid, _prefix, text, end in _children_records(cell_dir, main_pid, (PREFIX,)):
        if end["code"] is not None and int(end["code"]) == exit_code and _POOL_WORKER.search(text):
            return exception_place(text)
    return ""


# A pool's worker's loop, which runs the task whose SystemExit the pool sends back to the main: another child's
# own sys.exit is not what the main ended with (the main raised its own SystemExit, or tolerated that child)
_POOL_WORKER = re.compile(
    r'concurrent/futures/process\.py", line \d+, in _process_worker|multiprocessing/pool\.py", line \d+, in worker'
)


def children_killed(cell_dir: str, main_pid: int | None) -> list[tuple[int, str, str]]:
    """(pid, signal, place) of each process but the main that died by a signal it was not sent by its parent:
    one that sent it to itself (its place, the call), one whose parent read its status (reaped-PID.txt, no
    place: the kernel's OOM killer, a cgroup's limit), the first death first, each process once."""
    found: dict[int, tuple[int, str, str]] = {}
    for pid, prefix, text, end in _children_records(cell_dir, main_pid, (PREFIX, REAPED)):
        if end["signal"] and pid not in found:
            found[pid] = (pid, end["signal"], exception_place(text) if prefix == PREFIX else "")
    return list(found.values())


def _children_records(
    cell_dir: str, main_pid: int | None, prefixes: tuple[str, ...]
) -> Iterator[tuple[int, str, str, re.Match]]:
    """(pid, prefix, text, its end) of each record of a process but the main, the oldest first."""
    folder = dump_dir(cell_dir)
    try:
        names = sorted(os.listdir(folder), key=lambda n: _mtime(os.path.join(folder, n)))
    except OSError:
        return
    for name in names:
        prefix = next((p for p in prefixes if name.startswith(p)), "")
        pid = name[len(prefix) : -len(".txt")] if prefix and name.endswith(".txt") else ""
        if not pid.isdigit() or int(pid) == main_pid:
            continue
        text, end = _read_file(os.path.join(folder, name))
        if end is not None:
            yield int(pid), prefix, text, end


def _mtime(path: str) -> float:
    try:
        return os.path.getmtime(path)
    except OSError:
        return 0.0


# What a cell's main process says when a worker it reads from has gone: torch's report of the exit (with or
# without its status), a lost connection to it (worker_lost), or the failure of a batch it was unpickling from
# the gone worker's file-descriptor sharer (FileNotFoundError in multiprocessing's resource_sharer).
_HEARD_OF_A_WORKER = frozenset({WORKER_EXITED, WORKER_LOST})
_LOADER_FRAMES = re.compile(r"(?:^|; )(?:torch/utils/data/|torch/multiprocessing/|multiprocessing/)")
# A connection the gone worker held, broken: its consequence wherever the main's traceback was cut short
# (CPython's `lost sys.stderr` at shutdown leaves only the outer frames, main.py:21 in <module>)
_BROKEN_CONNECTION = re.compile(r"^(?:ConnectionResetError|EOFError|BrokenPipeError|ConnectionRefusedError)\b")
# ... and the gone worker's file-descriptor sharer (multiprocessing/resource_sharer.py), whose frames a traceback
# cut short by CPython's `lost sys.stderr` no longer shows: told by its type alone only then
_GONE_SHARER = re.compile(r"^FileNotFoundError\b")
# concurrent.futures' word that a worker of its pool ended abruptly (`A process in the process pool was terminated
# abruptly ...`, `A child process terminated abruptly, the process pool is not usable anymore`)
_BROKEN_POOL = re.compile(r"^(?:concurrent\.futures\.process\.)?BrokenProcessPool\b")


def worker_ended_itself(
    verdict: Verdict, where: str, cell_dir: str, main_pid: int | None, text: str = ""
) -> tuple[Verdict, str]:
    """A worker process that ended itself with a status (`sys.exit(2)` in a Dataset's `__getitem__`), recorded
    under inject, is the failure; what the main then said is its consequence, which varies from run to run
    (torch's `exited unexpectedly`, a lost connection, a batch it could not unpickle). One outcome, one
    signature, the worker's own line. Any other verdict, or no such record: as it is. text: the cell's output."""
    if verdict.outcome not in (Outcome.FAIL, Outcome.WORKER_CRASH) or verdict.signal or verdict.rank is not None:
        return verdict, where
    heard = verdict.signature.split(" in ")[0]
    if _BROKEN_POOL.match(heard):
        return _pool_worker_killed(verdict, where, cell_dir, main_pid)
    told = _child_killed_first(verdict, where, cell_dir, main_pid)
    if told is not None:
        return told
    cut_short = "lost sys.stderr" in text and _GONE_SHARER.match(heard)
    if not (
        heard in _HEARD_OF_A_WORKER or _BROKEN_CONNECTION.match(heard) or cut_short or _LOADER_FRAMES.search(where)
    ):
        return verdict, where  # the main failed on its own, not in the loader's machinery
    ends = children_ends(cell_dir, main_pid, workers_only=True)
    if not ends:
        return _worker_killed(verdict, where, cell_dir, main_pid) if heard == WORKER_EXITED else (verdict, where)
    pid, code, place = ends[0]
    own = place.rsplit("; ", 1)[-1]
    at = f" at {own}" if own else ""
    error = (
        f"a worker process (pid {pid}) ended itself with exit status {code}{at}; the main then said: {verdict.error}"
    )
    signature = with_place(WORKER_EXITED, place, by_message=True) if place else WORKER_EXITED
    return Verdict(Outcome.WORKER_CRASH, "", error, signature), place or where


def _worker_killed(verdict: Verdict, where: str, cell_dir: str, main_pid: int | None) -> tuple[Verdict, str]:
    """The loader said only `exited unexpectedly` (its main was waiting on the queue as the worker died: the
    DataLoader's own race, likelier on a loaded machine), and a worker's death by a signal was recorded under
    inject, by its own kill or as its parent read its status: that signal is the worker's death, told as the
    loader's other words (`is killed by signal: Killed`) tell it."""
    killed = children_killed(cell_dir, main_pid)
    if not killed:
        return verdict, where
    # told as the loader's `killed by signal` is: where the main heard of it, one signature either way
    return Verdict(Outcome.WORKER_CRASH, killed[0][1], verdict.error, WORKER_SIGNAL), where


# a status the main's own error gives a child's death by a signal: `exit code -9`, `exitcode=-11`, `died with -9`
_NEGATIVE_STATUS = re.compile(r"(?<![\w.-])-(?P<num>\d{1,2})\b")


def _child_killed_first(verdict: Verdict, where: str, cell_dir: str, main_pid: int | None) -> tuple | None:
    """A child the program started (its own multiprocessing.Process) that died by a signal no parent sent, recorded
    under inject (its own kill, or its parent's read of its status), whose status the main's exception then gave
    (`RuntimeError: parameter server died at step 4 (exit code -9)`): the child's death is the failure, as where
    its fatal dump tells it (the eighty-sixth set's rp_child_watchdog_sigkill: its watchdog's SIGKILL, no dump).
    None otherwise."""
    said = {int(m["num"]) for m in _NEGATIVE_STATUS.finditer(verdict.error)}
    if not said:
        return None
    for pid, name, place in children_killed(cell_dir, main_pid):
        if name in signals.Signals.__members__ and signals.Signals[name].value in said:
            at = f" at {place.rsplit('; ', 1)[-1]}" if place else ""
            error = f"killed by {name} in a child process the main started (pid {pid}){at}; the main then failed with "
            error += verdict.error
            where = place or where
            return Verdict(Outcome.WORKER_CRASH, name, error, with_place(WORKER_SIGNAL, where)), where
    return None


def child_killed_itself(verdict: Verdict, where: str, cell_dir: str, main_pid: int | None) -> str:
    """`where` of a child process the program ran that died by a signal it sent itself (a memory guard's SIGKILL),
    recorded under inject, whose parent's CalledProcessError is the verdict: the child's own call. Any other
    verdict, or no such record (the kernel's OOM killer sends it from outside): `where` as it is."""
    if (
        verdict.outcome is not Outcome.WORKER_CRASH
        or not verdict.signal
        or not CHILD_DIED_BY_SIGNAL.search(verdict.error)
    ):
        return where
    placed = [place for _pid, sig, place in children_killed(cell_dir, main_pid) if sig == verdict.signal and place]
    return placed[0] if placed else where


def _pool_worker_killed(verdict: Verdict, where: str, cell_dir: str, main_pid: int | None) -> tuple[Verdict, str]:
    """A process pool broken by a worker's death by a signal, recorded under inject: that death is the failure,
    the pool's BrokenProcessPool its consequence; placed where the worker sent it to itself, else where the
    main waited on the pool."""
    killed = children_killed(cell_dir, main_pid)
    if not killed:
        return verdict, where
    pid, signal, place = killed[0]
    at = f" at {place.rsplit('; ', 1)[-1]}" if place else ""
    error = f"a worker process (pid {pid}) was killed by {signal}{at}; the main then said: {verdict.error}"
    where = place or where
    return Verdict(Outcome.WORKER_CRASH, signal, error, with_place(WORKER_SIGNAL, where)), where


def handled_path(cell_dir: str, pid: int, chain: bool = False) -> str:
    """Where the exception pid was handling when it called sys.exit is recorded (incell/last_exit.py); chain: as
    Python prints it, its chain and all."""
    return os.path.join(dump_dir(cell_dir), f"{HANDLED_CHAIN if chain else HANDLED}{pid}.txt")


def handled(cell_dir: str, pid: int | None) -> str:
    """The traceback of the exception pid was handling when it called sys.exit (incell/last_exit.py), as
    text; "" where none was recorded."""
    if pid is None:
        return ""
    try:
        with open(handled_path(cell_dir, pid), encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return ""


def programs_own_exit(cell_dir: str, pid: int, exit_code: int | None) -> bool:
    """Whether pid ended by a sys.exit(exit_code) that the program's own code called: not a library's on its
    behalf (Hydra's run_and_report, argparse's error, click's main), whose reports have rules of their own."""
    text, end = _read(cell_dir, pid)
    if not _met(end, exit_code, ""):
        return False
    frames, _ = last_traceback(text)
    return bool(frames) and is_programs(frames[0][0])


def own_exit_code(cell_dir: str, pid: int) -> int | None:
    """The status pid's recorded sys.exit ended it with, where one is recorded (a rank's, whose status only its
    launcher's report tells); else None."""
    _text, end = _read(cell_dir, pid)
    return int(end["code"]) if end is not None and end["code"] is not None else None


def place(cell_dir: str, pid: int, exit_code: int | None, signal: str) -> str:
    """The recorded place of pid's own end where it matches exit_code, or signal where it died by one; else ""."""
    text, end = _read(cell_dir, pid)
    return exception_place(text) if _met(end, exit_code, signal) else ""


def rank_place(cell_dir: str, rank: int, signal: str, exit_code: int | None = None) -> str:
    """The recorded place of a rank's own end: a death by signal it sent itself (os.kill, abort), else the exit
    status it ended with (sys.exit(3)), found by the pid the rank wrote under inject; else, for a signal no
    handler of Python's catches (SIGXCPU at its CPU-time limit), where the stacks it dumped as it died put it;
    "" where no record matches (the OOM killer's SIGKILL leaves none)."""
    from crashmatrix.verdict.forensics import death_dump_frame  # forensics reads this module's records

    pids = [record["pid"] for record in rank_report.read(cell_dir) if record.get("rank") == rank]
    found = next((found for pid in pids if (found := place(cell_dir, pid, exit_code, signal))), "")
    return found or (death_dump_frame(cell_dir, pids, signal) if signal and exit_code is None else "")


def spawned_rank_place(cell_dir: str, main_pid: int | None, exit_code: int) -> str:
    """The recorded place of a rank that ended itself with exit_code before any record said which rank it was:
    a spawned rank says so at its first DataLoader pass or in its exit functions, which `os._exit(3)` skips.
    The one process but the main that recorded that end is it; "" where none did, or more than one."""
    found = [place for _pid, code, place in children_ends(cell_dir, main_pid) if code == exit_code]
    return found[0] if len(found) == 1 else ""


def spawned_rank_signal_place(cell_dir: str, main_pid: int | None, signal: str) -> str:
    """The recorded place of a rank's death by a signal it sent itself before any record said which rank it was (a
    rank elastic_launch spawned learns its RANK after the in-cell recorder started: the eighty-third set's rank whose
    own memory watchdog SIGKILLed it): the one process but the main that recorded such a kill is it; else the one
    child reaped dead by that signal, placed by the stacks it dumped as it died; "" where none did, or more than
    one."""
    killed = [(pid, place) for pid, killed_by, place in children_killed(cell_dir, main_pid) if killed_by == signal]
    found = [place for _pid, place in killed if place]
    if len(found) == 1:
        return found[0]
    if found or len(killed) != 1:
        return ""
    # ... or by a signal whose default action ended it with no word (a SIGALRM it armed itself, with no handler in
    # that rank: the hundred-and-first set's alarm_rank1_step), its parent reaping it: where the stacks it dumped
    # as it died put it (incell/stackdump.py's DEATH_DUMPS)
    from crashmatrix.verdict.forensics import death_dump_frame  # forensics reads this module's records

    return death_dump_frame(cell_dir, [killed[0][0]], signal)


_RANK_EXIT = re.compile(r"(?:terminated|exited) with exit code (\d+)$")


def rank_exit_code(verdict: Verdict) -> int | None:
    """The exit status a rank ended itself with, where the verdict is its launcher's word of it (classify's
    `ProcessExitedException: process 1 terminated with exit code 3`, torchrun's entry read as `rank 1 exited
    with exit code 3`); else None."""
    found = _RANK_EXIT.search(verdict.error) if verdict.outcome is Outcome.FAIL else None
    return int(found.group(1)) if found else None


# The signals of a fault in native code (an abort too: C++'s terminate). Not SIGINT: Python kills itself by it
# after its own exit where a KeyboardInterrupt ended the program; nor a kill from outside, wherever it found it.
_FAULTS = frozenset({"SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT", "SIGTRAP", "SIGSYS"})


def died_at_exit(cell_dir: str, verdict: Verdict, report: dict | None, returncode: int | None = None) -> bool:
    """Whether a death by a fault's signal came after the process's Python exit had run: in the interpreter's shutdown or
    a library's native destructors (a profiler left running, a thread never joined), where faulthandler is off
    and no stack is printed. report: the cell's main process's report.json, which the in-cell recorder writes
    from the first atexit handler it registers, so the last to run (a probe's, as its function returned); a
    rank's end is written the same way (incell/rank_report.py). Never under plain runs: nothing is recorded. returncode:
    the main process's status, where known: a death of no known rank is the main's only where the main died by it
    (a review's rank the program forked died mid-run by SIGSEGV, and the main, which exited by a status, had written
    its report)."""
    if verdict.signal not in _FAULTS or verdict.outcome not in (Outcome.CRASH, Outcome.RANK_CRASH):
        return False
    if verdict.rank is None:
        main_died = returncode is None or (returncode < 0 and signal_name(-returncode) == verdict.signal)
        return report is not None and main_died
    return any(r.rank == verdict.rank and r.ended is not None for r in recorded_ranks(cell_dir))


# C++'s runtime as it calls abort(): a std::thread destroyed while joinable, an exception out of a destructor
_TERMINATE = re.compile(r"^terminate called (?:without an active exception|after throwing an instance of .+)$", re.M)


def own_failure_status(cell_dir: str, pid: int, printed: str = "") -> int | None:
    """The exit status the process's own failure gave it, as recorded under inject: 1 for its uncaught exception
    (incell/uncaught.py: Python's own hook was called, so nothing caught it); N for a sys.exit(N), N not 0, called
    while handling an exception whose traceback the process printed (Hydra's run_and_report prints a task's and
    exits 1: a review's task that raised, then died at exit); None otherwise. Not a recorded sys.exit(N) alone: the
    record is written at the call, and a program may catch the SystemExit and go on (argparse's exit(2) caught, the
    defaults taken: a review's program that then died at exit; argparse prints its message, not a traceback)."""
    if os.path.isfile(os.path.join(dump_dir(cell_dir), f"{UNCAUGHT}{pid}.txt")):
        return 1
    code = own_exit_code(cell_dir, pid)
    if not code or not printed:
        return None
    reported = read_output(handled(cell_dir, pid)).last_traceback()
    shown = {each.exception for each in read_output(printed).tracebacks}
    return code if reported is not None and reported.exception and reported.exception in shown else None


def at_exit(verdict: Verdict, where: str, stderr: str = "") -> tuple[Verdict, str]:
    """The verdict and `where` of a death at exit: its error says so where it was the signal alone (`killed by
    SIGSEGV at exit`, the first line a summary shows), or C++'s runtime's last word before its abort where it
    printed one (`terminate called without an active exception`: a std::thread never joined); its place (a
    native library's, where the kernel named one), then AT_EXIT."""
    error = verdict.error
    if error.endswith(f"killed by {verdict.signal}"):
        terminated = _TERMINATE.findall(stderr) if verdict.signal == "SIGABRT" else []
        error = f"{error.removesuffix(f'killed by {verdict.signal}')}{terminated[-1]}" if terminated else error
        error = f"{error} {AT_EXIT}"
    return dataclasses.replace(verdict, error=error), "; ".join(p for p in (where, AT_EXIT) if p)
