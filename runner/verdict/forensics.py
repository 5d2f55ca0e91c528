"""Where a cell hung or died, read from outside (controller side; never imports torch).

- A timeout: before the kill, every process of the cell's tree that caught
  crashmatrix.incell.stackdump's signal dumps the Python stacks of all its threads, py-spy
  adds native frames where installed, and a Python process that neither gave is ended by SIGABRT,
  on which faulthandler (on in every cell: PYTHONFAULTHANDLER) dumps every thread's stack first
  (abort_dumps). Everything goes to `stacks.txt` in the cell directory. The error then names what the
  main thread waits on and the innermost user frame of a stuck worker; `where` gives those frames
  by their path from the app's root.
- A death by signal: the faulting library from torch's fatal-signal backtrace
  in stderr.log, else from the kernel's `segfault at ... in libX.so[...]` line; an extension
  module by its path below site-packages; then the program's own innermost frame from
  faulthandler's dump of the thread that died, by its path from the app's root.
- A SIGKILL: the kernel's OOM killer when its log or the cell's memory cgroup
  says so (read only; nothing here writes to /sys/fs/cgroup).
- An exception (fail, oom, cuda_error, a rank's own): the frame that raised it, a library's followed by the
  program's frame that called into it (verdict/exception_place.py).
"""

from __future__ import annotations

import ast
import collections
import dataclasses
import functools
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Collection

from crashmatrix.incell.stackdump import DEATH_DUMPS, DUMP_SIGNAL, dump_dir, dumped, programs_fault_dumps
from crashmatrix.outcome import HANG, Outcome
from crashmatrix.process import supervise
from crashmatrix.verdict import kept_stacks
from crashmatrix.verdict.classify import THREAD_REFUSED, Verdict
from crashmatrix.verdict.evidence import Evidence, oom_kill_count
from crashmatrix.verdict.exception_place import (
    each_traceback,
    exception_place,
    is_ours,
    is_programs,
    last_traceback,
    own_text,
    starting_call,
)
from crashmatrix.verdict.parsed import TRACEBACK_HEAD, read_output
from crashmatrix.verdict.signature import (
    AT_EXIT,
    SIGNAL_TEXT,
    TORCH_FATAL_HEAD,
    WATCHDOG_DUMP,
    WATCHDOG_ENDED,
    WORKER_EXITED,
    could_match,
    finditer,
    hang_signature,
    last_match,
    native_assertion_place,
)
from crashmatrix.verdict.stacks import (
    PACKAGES_DIR,
    Frame,
    ProcessStacks,
    faulthandler_frame,
    helper_frame,
    how_busy,
    library_text,
    main_thread,
    parse_faulthandler,
    parse_pyspy,
    place_text,
    program_place,
    summarize,
)

STACKS_FILE = kept_stacks.FILE
_DUMP_WAIT_S = 2.0
_PYSPY_WAIT_S = 5.0


# --- stacks: collecting them before the kill -------------------------------------


def catches(pid: int, signum: int) -> bool:
    """Whether the process has a handler for signum (SigCgt): a real-time signal would kill one without."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    except (OSError, ValueError):
        pass
    return False


def _request_dumps(pids: list[int], directory: str, since: dict[int, int] | None = None) -> dict[int, str]:
    """Signal each process that registered a dump file; wait (bounded) until each file is written. since: each
    file's size before this request (a second sample: the handler appends to it); what was written after it."""
    since = since or {}
    asked = {
        pid: os.path.join(directory, f"{pid}.txt")
        for pid in pids
        if catches(pid, DUMP_SIGNAL) and os.path.exists(os.path.join(directory, f"{pid}.txt"))
    }
    supervise.signal_all(asked, DUMP_SIGNAL)
    sizes: dict[int, int] = {}
    deadline = time.monotonic() + _DUMP_WAIT_S
    while time.monotonic() < deadline:
        now = {pid: _size(path) for pid, path in asked.items()}
        # A dump is written in one go by the signal handler: done once grown, no longer growing and ended with
        # a whole line. On a busy box the handler can be descheduled mid-line for longer than a poll: a dump read
        # then had its main thread cut off (`  File` and nothing after), and the hang was placed in another thread.
        if all(
            size > since.get(pid, 0) and sizes.get(pid) == size and _ends_line(asked[pid]) for pid, size in now.items()
        ):
            break
        sizes = now
        time.sleep(0.02)
    return {pid: _read(path, offset=since.get(pid, 0)) for pid, path in asked.items()}


_MORE_SAMPLES = 4  # of a busy process's stacks after the first, to tell a loop from one call that never returns
_SAMPLE_GAP_S = 0.1


def _more_samples(pids: list[int], directory: str) -> dict[int, list[list[Frame]]]:
    """The main thread's frames in a few more dumps of each busy process, 0.1 s apart: where the line it runs
    moves, it loops; where it stays, one call has not returned. From its dump file (inject), else py-spy."""
    samples: dict[int, list[list[Frame]]] = {pid: [] for pid in pids}
    exe = pyspy_path()
    for _ in range(_MORE_SAMPLES if pids else 0):
        _ran_since(pids, {pid: _cpu_ticks(pid) for pid in pids})
        since = {pid: _size(os.path.join(directory, f"{pid}.txt")) for pid in pids}
        dumped = _request_dumps(pids, directory, since)
        for pid in pids:
            threads = parse_faulthandler(dumped.get(pid, "")) or (parse_pyspy(_pyspy(exe, pid)) if exe else [])
            thread = main_thread(threads, pid)
            if thread is not None and thread.frames:
                samples[pid].append(thread.frames)
    return samples


# A sample is later than the one before only where the process ran in between: on a loaded machine a busy process may
# get no CPU for a gap or more, and samples that all found it on one line told a loop as one call that never
# returns (tests/test_hang_places.py under a fresh clone's `make test`, once)
_RAN_TICKS = 2  # clock ticks of CPU (usually 10 ms each) each busy process runs between two samples
_RAN_WAIT_S = 2.0  # the most a sample waits for them


def _ran_since(pids: list[int], ticks: dict[int, int | None]) -> None:
    """Sleep the gap, then on until each process has had _RAN_TICKS of CPU since `ticks` (or _RAN_WAIT_S passed)."""
    time.sleep(_SAMPLE_GAP_S)
    deadline = time.monotonic() + _RAN_WAIT_S
    for pid in pids:
        before = ticks.get(pid)
        while before is not None and time.monotonic() < deadline:
            now = _cpu_ticks(pid)
            if now is None or now - before >= _RAN_TICKS:
                break
            time.sleep(0.02)


def _cpu_ticks(pid: int) -> int | None:
    """The process's user and system CPU time in clock ticks (/proc's stat, fields 14 and 15); None where unread."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return None


def ask_survivors(root: int, token: str, cell_dir: str) -> None:
    """A failed job's processes still alive once its main process has ended (Lightning's ddp leaves its other
    ranks running): their stacks into their dump files before the kill, where verdict/peers.py reads where
    the peers of a rank whose collective timed out were."""
    alive = sorted(supervise.tree(None, token) - {root})
    if alive:
        _request_dumps(alive, dump_dir(cell_dir))


def _ends_line(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            f.seek(-1, os.SEEK_END)
            return f.read(1) == b"\n"
    except OSError:
        return False


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _read(path: str, limit: int = 512 * 1024, offset: int = 0) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            return f.read(limit).decode("utf-8", errors="replace")
    except OSError:
        return ""


def pyspy_path() -> str | None:
    """py-spy on PATH or beside our interpreter (a virtual environment's bin/ is often not on PATH)."""
    beside = os.path.join(os.path.dirname(sys.executable), "py-spy")
    return shutil.which("py-spy") or (beside if os.access(beside, os.X_OK) else None)


# Full file names, as faulthandler gives them: py-spy's short ones (`torch/autograd/graph.py`,
# `threading.py`) cannot be told from the program's own. --native fails on some builds and kernels, and
# reading libtorch's symbols may outlast the wait on a busy machine: then Python frames only.
_PYSPY_TRIES: tuple[list[str], ...] = (["--native", "--full-filenames"], ["--full-filenames"], ["--native"], [])


def _pyspy(exe: str, pid: int) -> str:
    for extra in _PYSPY_TRIES:
        try:
            done = subprocess.run(
                [exe, "dump", *extra, "--pid", str(pid)],
                capture_output=True,
                text=True,
                timeout=_PYSPY_WAIT_S,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired:
            continue
        except OSError:
            return ""
        if done.returncode == 0:
            return done.stdout
    return ""


def _pyspy_all(pids: list[int]) -> dict[int, str]:
    exe = pyspy_path()
    if not exe or not pids:
        return {}
    import concurrent.futures  # here: only a timeout with py-spy installed needs threads; the controller starts lean

    with concurrent.futures.ThreadPoolExecutor(max_workers=min(8, len(pids))) as pool:
        return dict(zip(pids, pool.map(lambda p: _pyspy(exe, p), pids)))


def _cmdline(pid: int) -> str:
    return supervise.describe(pid).partition(" ")[2]


def collect(root: int, token: str, cell_dir: str) -> tuple[str, str]:
    """Before a timeout's kill: write stacks.txt; returns (error clause, where) or ("", "") when nothing was learnt.

    A distributed cell's processes are labelled by rank, and the clause names the straggler
    (verdict/straggler.py)."""
    from crashmatrix.verdict import straggler  # it reads this module's stacks

    tree = supervise.tree(root, token)
    if not tree:
        return "", ""
    pids = _in_start_order(tree, root)
    # What names each process, read while all live: the last resort below ends some of them.
    stats, environs = supervise.process_stats(), {pid: supervise.environ(pid) for pid in pids}
    cmdlines = {pid: _cmdline(pid) for pid in pids}
    ran = running(pids)  # before the dumps, whose handlers run in the processes
    dumps = _request_dumps(pids, dump_dir(cell_dir))
    samples = _more_samples(sorted(ran), dump_dir(cell_dir))
    spies = _pyspy_all(pids)
    unknown = [pid for pid in pids if not (parse_faulthandler(dumps.get(pid, "")) or parse_pyspy(spies.get(pid, "")))]
    aborted = abort_dumps(unknown, pids)
    procs = []
    for pid in pids:
        p = ProcessStacks(pid, cmdlines[pid], dumps.get(pid) or aborted.get(pid, ""), spies.get(pid, ""))
        p.aborted, p.busy, p.samples = bool(aborted.get(pid)), pid in ran, samples.get(pid, [])
        p.threads = parse_faulthandler(p.faulthandler) or parse_pyspy(p.pyspy)
        procs.append(p)
    spawned = {p.pid for p in procs if straggler.spawned(p)}
    ranks = straggler.ranks_of(pids, cell_dir, spawned, stats=stats, environs=environs)
    order = {pid: i for i, pid in enumerate(pids)}
    procs.sort(key=lambda p: _stacks_place(p.pid, root, ranks.get(p.pid), order[p.pid]))
    _write_stacks(os.path.join(cell_dir, STACKS_FILE), procs, root, {pid: _rank_role(r) for pid, r in ranks.items()})
    by_pid = {p.pid: p for p in procs}
    own = [straggler.state(p, ranks[p.pid]) for p in procs if p.pid in ranks and ranks[p.pid].own]
    if any(s.stacked for s in own):
        helpers = [(ranks[p.pid].rank, p) for p in procs if p.pid in ranks and not ranks[p.pid].own]
        return straggler.summarize(own, helpers)
    return summarize(by_pid.get(root), [p for p in procs if p.pid != root])


# --- stacks with nothing of crashmatrix's in the cell: faulthandler's own dump ---------------------
#
# Without inject nothing of crashmatrix runs in the program, and py-spy is an optional extra. What every
# cell's Python processes have is faulthandler: launch.cell_env sets PYTHONFAULTHANDLER=1, which a spawned
# interpreter (spawn, forkserver, a DataLoader worker under spawn, torchrun's ranks) reads from its
# environment and a forked child inherits with its signal handlers. On a fatal signal it writes every
# thread's Python stack to the process's stderr, then re-raises the signal. So a process whose stacks
# nothing else gave is sent SIGABRT, last, at the timeout, and its stacks are read from its stderr file.
#
# What it changes for the program: nothing while it runs (the variable was there before, for crashes);
# at the timeout, such a process dies by SIGABRT instead of the SIGTERM that follows, so its own SIGTERM
# handler (a checkpoint on SIGTERM) does not run. What it wrote before the kill, all the verdict reads
# (loop._where_it_hangs measures stderr_at_kill before asking), is unchanged; stderr.log ends with the dump.
#
# Why SIGABRT among faulthandler's signals (SIGSEGV, SIGFPE, SIGABRT, SIGBUS, SIGILL): a DataLoader worker
# replaces SIGSEGV's, SIGBUS's and SIGFPE's handlers with torch's own (`ERROR: Unexpected segmentation
# fault`, no Python stack) and keeps faulthandler's on SIGABRT; SIGILL would make the log claim an illegal
# instruction. SIGUSR1/SIGUSR2 are no faulthandler signal (and Lightning's and submitit's handlers). A
# program that set its own SIGABRT handler (signal.signal) replaced faulthandler's: that handler runs
# instead, the process has no stacks in stacks.txt, and it is ended as every process is, with SIGTERM
# then SIGKILL; a process that ignores SIGABRT, or has faulthandler off (its SIGABRT not caught), or is not
# a Python interpreter (wandb-core's Go runtime would print its goroutines) is never sent it.
#
# The tree is stopped (SIGSTOP) while one process at a time dumps and ends: the others cannot react to its
# death (a DataLoader raising for its lost worker) nor write into the same stderr meanwhile, so each dump is
# whole and is the process's own. Every process is continued (SIGCONT) after. multiprocessing's resource
# tracker is spared: it unlinks the program's leaked shared memory once the others are gone. A core file
# is not wanted: the process's RLIMIT_CORE is set to 0 first (prlimit; its files are the program's tree).

ABORT_SIGNAL = signal.SIGABRT
_FATAL_ABORT = "Fatal Python error: Aborted"
_ABORT_EACH_S = 1.0  # one process's dump; a few ms unless the program's own handler caught it


def abort_dumps(pids: list[int], tree: list[int]) -> dict[int, str]:
    """faulthandler's dump of each of pids that dumps on SIGABRT, ending it so (above); tree: every
    process of the cell, stopped meanwhile. Bounded by _DUMP_WAIT_S in all."""
    # One stopped before (by the program, a debugger) stays stopped: it is neither stopped nor continued here.
    tree = [pid for pid in tree if _state(pid) not in ("T", "t", "Z", "X", "x", "")]
    chosen = [(pid, path) for pid in pids if pid in tree and _dumps_on_abort(pid) and (path := _stderr_file(pid))]
    if not chosen:
        return {}
    out: dict[int, str] = {}
    deadline = time.monotonic() + _DUMP_WAIT_S
    supervise.signal_all(tree, signal.SIGSTOP)
    stopping = time.monotonic() + 0.2  # a signal is delivered when its process next runs: on a busy box, later
    while time.monotonic() < stopping and not all(_state(pid) in ("T", "Z", "X", "x", "") for pid in tree):
        time.sleep(0.002)
    try:
        for pid, path in chosen:
            start = _size(path)
            _no_core_file(pid)
            supervise.signal_all([pid], ABORT_SIGNAL)
            supervise.signal_all([pid], signal.SIGCONT)
            until = min(deadline, time.monotonic() + _ABORT_EACH_S)
            while not _ended(pid) and time.monotonic() < until:
                time.sleep(0.005)
            text = _read(path, offset=start)
            at = text.find(_FATAL_ABORT)
            out[pid] = text[at:] if at >= 0 else ""
            if time.monotonic() >= deadline:
                break
    finally:
        supervise.signal_all(tree, signal.SIGCONT)
    return out


def _dumps_on_abort(pid: int) -> bool:
    """A Python interpreter that catches SIGABRT (faulthandler's handler, or the program's own), not
    multiprocessing's resource tracker or forkserver."""
    try:
        exe = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return False
    return exe.startswith(("python", "pypy")) and catches(pid, ABORT_SIGNAL) and not supervise.kept_by_design(pid)


def _stderr_file(pid: int) -> str:
    """The regular file the process's stderr writes to (the cell's stderr.log, a launcher's log of a
    rank), where its dump can be read back; "" for a pipe, a terminal, /dev/null."""
    try:
        path = os.readlink(f"/proc/{pid}/fd/2")
    except OSError:
        return ""
    return path if os.path.isabs(path) and os.path.isfile(path) else ""


def _no_core_file(pid: int) -> None:
    import resource  # here: only a timeout without inject's dumps needs it

    try:
        _soft, hard = resource.prlimit(pid, resource.RLIMIT_CORE)
        resource.prlimit(pid, resource.RLIMIT_CORE, (0, hard))
    except (OSError, ValueError):
        pass


_RUNNING_WINDOW_S = 0.1


def running(pids: list[int]) -> set[int]:
    """The processes whose main thread ran in a short window (its CPU time grew, or it was on a CPU or runnable):
    a busy loop, not a wait on a lock, a queue or a peer."""
    before = {pid: _main_thread_ticks(pid) for pid in pids}
    time.sleep(_RUNNING_WINDOW_S)
    ran = set()
    for pid in pids:
        ticks, earlier = _main_thread_ticks(pid), before[pid]
        if (ticks is not None and earlier is not None and ticks > earlier) or _state(pid) == "R":
            ran.add(pid)
    return ran


def _main_thread_ticks(pid: int) -> int | None:
    """The CPU time (user and system, in clock ticks) of the process's main thread; None where it is gone."""
    try:
        with open(f"/proc/{pid}/task/{pid}/stat") as f:
            fields = f.read().rpartition(")")[2].split()
        return int(fields[11]) + int(fields[12])  # utime, stime: the 14th and 15th of stat
    except (OSError, IndexError, ValueError):
        return None


def _state(pid: int) -> str:
    """The process's state letter in /proc (R, S, D, T, Z...); "" where it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return ""


def _ended(pid: int) -> bool:
    """Gone, or a zombie: its dump is written."""
    return _state(pid) in ("Z", "X", "x", "")


def _in_start_order(pids: Collection[int], root: int) -> list[int]:
    """Root first, then the others in the order they started. Not by pid alone: pids wrap (at 32768
    on many hosts), and a DataLoader worker started after the wrap has a smaller pid than its rank.
    Start times are in clock ticks (10 ms), and two workers forked in one tick are told apart by the
    kernel's handing out of pids: upwards from the root's, round past the wrap."""
    stats = supervise.process_stats()
    wrap = _pid_max()
    return sorted(pids, key=lambda p: (p != root, stats.get(p, (0, 0))[1], (p - root) % wrap))


def _pid_max() -> int:
    try:
        with open("/proc/sys/kernel/pid_max") as f:
            return int(f.read())
    except (OSError, ValueError):
        return 1 << 22  # the kernel's largest


def _stacks_place(pid: int, root: int, rank, started: int) -> tuple:
    """stacks.txt's order: main, then each rank (its own process before its helpers), then the rest;
    `started` (place in start order) within each."""
    if pid == root:
        return (0,)
    if rank is None:
        return (2, started)
    return (1, rank.rank, not rank.own, started)


def _rank_role(rank) -> str:
    """How stacks.txt names a process of a rank: `rank 1`, or `of rank 1` after a helper's role."""
    return f"rank {rank.rank}" if rank.own else f"of rank {rank.rank}"


def _write_stacks(path: str, procs: list[ProcessStacks], root: int, ranks: dict[int, str] | None = None) -> None:
    """Every process's stacks, each headed by its role (main, `rank 1`, `DataLoader worker of rank 1`)."""
    ranks = ranks or {}
    parts = []
    for p in procs:
        role = "main" if p.pid == root else p.role
        rank = ranks.get(p.pid, "")
        if rank.startswith("rank "):
            role = f"main, {rank}" if p.pid == root else rank
        elif rank:
            role = f"{role} {rank}"
        parts.append(f"=== pid {p.pid} ({role}): {p.cmdline}\n")
        if p.busy:
            parts.append(how_busy(p) + "\n")
        pin = p.pin_thread()
        if pin is not None:
            parts.append(f"(thread {pin.ident} is the pin-memory thread)\n")
        if p.faulthandler:
            how = "faulthandler, as SIGABRT ended the process" if p.aborted else "faulthandler"
            parts.append(f"--- Python stacks of every thread ({how})\n" + p.faulthandler.rstrip() + "\n")
        if p.pyspy:
            parts.append("--- py-spy dump\n" + p.pyspy.rstrip() + "\n")
        if p.busy and p.samples:  # which of its frames holds the loop: read back by diagnose (kept_stacks)
            parts.append(kept_stacks.samples_text(p.samples))
        if not (p.faulthandler or p.pyspy) and p.role in ("resource tracker", "forkserver"):
            parts.append("(no stacks: multiprocessing's own helper, not asked to end with a dump)\n")
        elif not (p.faulthandler or p.pyspy):
            parts.append(
                "(no stacks: not a Python process, faulthandler off or its SIGABRT handler the program's own,"
                " or its stderr not a file)\n"
            )
        parts.append("\n")
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write("".join(parts))
    except OSError:
        pass


def cleanup(cell_dir: str) -> None:
    """The per-process dump files: read before the kill, not kept (stacks.txt holds them)."""
    shutil.rmtree(dump_dir(cell_dir), ignore_errors=True)


# --- where it died ---------------------------------------------------------------

_TORCH_BLOCK = TORCH_FATAL_HEAD
_TORCH_FRAME = re.compile(r"^\s*frame #\d+: (.*?) \((0x[0-9a-f]+) in (.+?)\)\s*$", re.M)
_PY_REPORT_FRAME = re.compile(r'File "([^"]+)", line (\d+),? in (rebuild_storage_fd|_pin_memory_loop)\b')


# A Python extension module's file is its module's last name and the interpreter's tag
# (`cpython.cpython-311-x86_64-linux-gnu.so`, `_C.abi3.so`): alone it does not say whose module it is,
# and lmdb's `cpython.cpython-...so` reads as CPython itself. Such a file is named by its path below
# site-packages; a shared library (`libc.so.6`, `libcudnn_engines_precompiled.so.9`) by its file name.
_EXTENSION_FILE = re.compile(r"^(?P<stem>[^./]+)\.(?:cpython-\d+[^/]*|abi3|pypy\d*[^/]*)\.so$")
# faulthandler's last line on a fatal error (Python >= 3.10): the extension modules imported, by module name.
_EXTENSION_MODULES = re.compile(r"^Extension modules: (.*?)(?: \(total: \d+\))?\s*$", re.M)


def library_name(path: str) -> str:
    """How `where` names a native library: `libc.so.6`; an extension module by its path below
    site-packages (`lmdb/cpython.cpython-311-x86_64-linux-gnu.so`), or by its folder and file
    name where it is not installed in one."""
    path = path.replace("\\", "/")
    base = os.path.basename(path)
    if not _EXTENSION_FILE.match(base):
        return base
    below = PACKAGES_DIR.split(path)
    if len(below) > 1:
        return below[-1]
    folder = os.path.basename(os.path.dirname(path))
    return f"{folder}/{base}" if folder else base


def extension_by_module(base: str, stderr: str) -> str:
    """A bare extension module file name (the kernel's line has no path) as library_name names it,
    from the module faulthandler listed under that last name; the bare name where none or several."""
    m = _EXTENSION_FILE.match(base)
    if not m:
        return base
    modules = {
        name.strip()
        for line in (_EXTENSION_MODULES.findall(stderr) if could_match(_EXTENSION_MODULES, stderr) else [])
        for name in line.split(",")
    }
    owners = {name.rpartition(".")[0] for name in modules if name.rpartition(".")[2] == m.group("stem")}
    owners.discard("")
    return f"{owners.pop().replace('.', '/')}/{base}" if len(owners) == 1 else base


def _native_place(desc: str, lib: str) -> str:
    """`libc.so.6 (+0x156219)` or `libc10.so (c10::foo()+0x1a)` from one backtrace frame."""
    symbol, _, offset = desc.rpartition(" + ")
    symbol = "" if symbol in ("", "<unknown function>") else symbol
    if len(symbol) > 80:
        symbol = symbol[:77] + "..."
    return f"{library_name(lib)} ({symbol}+{offset})" if offset else f"{library_name(lib)} ({desc})"


def torch_fault_frames(text: str) -> list[tuple[int, str, str]]:
    """(pid, signal, place) of each faulting thread in torch's fatal-signal backtraces.

    The faulting thread's block holds c10's fatalSignalHandler; after the handler's own frames comes
    the kernel's signal trampoline, then the frame that faulted. Other threads' blocks (collected
    with SIGUSR2) are skipped.
    """
    found = []
    heads = list(finditer(_TORCH_BLOCK, text))
    for i, head in enumerate(heads):
        block = text[head.end() : heads[i + 1].start() if i + 1 < len(heads) else len(text)]
        frames = _TORCH_FRAME.findall(block)
        handler = [k for k, (desc, _addr, _lib) in enumerate(frames) if "FatalSignalHandler" in desc]
        if not handler or "fatalSignalHandler" not in "".join(frames[k][0] for k in handler):
            continue
        after = _past_handler([addr for _desc, addr, _lib in frames], handler[-1])
        if after < len(frames):
            desc, _addr, lib = frames[after]
            found.append((int(head.group(2)), head.group(1), _native_place(desc, lib)))
    return found


# The frames a fault passes through before torch's handler where faulthandler's came first (crashmatrix's order
# since 2026-12-01): the trampoline, then faulthandler's handler raising the signal again, then the trampoline again
_NESTED_WITHIN = 6


def _past_handler(addresses: list[str], handler_last: int) -> int:
    """The index of the frame that faulted: past torch's handler and the kernel's signal trampoline (__restore_rt)
    after it, and where faulthandler's handler handed the signal on (raise, faulthandler's handler, the trampoline
    again: the same address a few frames on), past those too."""
    after = handler_last + 2
    trampoline = addresses[handler_last + 1] if handler_last + 1 < len(addresses) else ""
    if trampoline:
        again = [k for k in range(after, min(len(addresses), after + _NESTED_WITHIN)) if addresses[k] == trampoline]
        if again:
            after = again[-1] + 1
    return after


def faulting_native_frames(text: str, through_python: bool = False) -> list[tuple[str, str]]:
    """(line, library path) of each native frame of the faulting thread in torch's fatal-signal backtrace,
    from the frame that faulted to where Python's own frames begin (`<omitting python frames>`, given with
    an empty path): the handler's frames, the interpreter's start and the other threads' blocks say nothing
    of the fault. The last faulting block; [] without one. through_python: every native frame after the handler's,
    past Python's (faulthandler's own handler, which handed the signal on, is the interpreter's: where torch's
    backtrace omits it, the frame that faulted comes after it)."""
    heads = list(finditer(_TORCH_BLOCK, text))
    found: list[tuple[str, str]] = []
    for i, head in enumerate(heads):
        block = text[head.end() : heads[i + 1].start() if i + 1 < len(heads) else len(text)]
        lines = [ln.strip() for ln in block.splitlines() if ln.strip()]
        frames = [(ln, _TORCH_FRAME.match(ln)) for ln in lines]
        handler = [k for k, (_ln, m) in enumerate(frames) if m and "FatalSignalHandler" in m.group(1)]
        if not handler or not any("fatalSignalHandler" in frames[k][0] for k in handler):
            continue
        kept = []
        addresses = [m.group(2) if m else "" for _ln, m in frames]
        for ln, m in frames[_past_handler(addresses, handler[-1]) :]:
            if m is None:
                if "omitting python frames" in ln and not through_python:
                    kept.append((ln, ""))
                    break
                continue
            kept.append((ln, m.group(3)))
        found = kept
    return found


# The faulting thread's native frames that one return address fills this often: a recursion that ran out of stack
_RECURSION_AT_LEAST = 16
# the frames faulthandler prints of a thread at most (CPython's MAX_FRAME_DEPTH), `...` after them
_FAULTHANDLER_DEPTH = 100
_FRAME_NUMBER = re.compile(r"^frame #\d+: ")


def recursion_depth(stderr: str) -> int:
    """How often one native frame repeats in the faulting thread's backtrace (torch's fatal-signal handler), or one
    Python frame in faulthandler's dump of it, where it repeats as a recursion that ran out of stack does (a C
    pickler over a list nested 20000 deep; a tensor subclass's __torch_function__ calling torch on itself), under
    a raised recursion limit; 0 otherwise. torch's backtrace stops after a few dozen frames, too few to tell a
    Python recursion through its dispatcher; faulthandler's dump gives 100."""
    # past Python's frames too: faulthandler's handler, which handed the signal on to torch's, is the interpreter's,
    # and the C recursion comes after it (the hundred-and-third held-out set's json.loads of a list nested 200000
    # deep under a raised limit, its `_json` frame 80 times over)
    frames = [_FRAME_NUMBER.sub("", line) for line, path in faulting_native_frames(stderr, True) if path]
    python = [(f.file, f.line, f.func) for f in died_thread_frames(stderr)]
    if len(python) < _FAULTHANDLER_DEPTH:
        # a stack that ran out fills faulthandler's dump; a recursion 24 deep whose leaf crashed in a library for
        # another reason is no overflow (a review's program, whose crash was torch's missing check)
        python = []
    most = max([*collections.Counter(frames).values(), *collections.Counter(python).values()], default=0)
    return most if most >= _RECURSION_AT_LEAST else 0


def faulting_signal(stderr: str) -> str:
    """The signal torch's fatal-signal handler names for the faulting thread (`SIGBUS`), else faulthandler's words
    for it; "" where neither is there."""
    heads = list(finditer(_TORCH_BLOCK, stderr))
    if heads:
        return heads[-1].group(1)
    fatal = list(finditer(_FATAL_ERROR, stderr))
    if fatal:
        said = stderr[fatal[-1].end() :].split("\n", 1)[0].strip()
        return SIGNAL_TEXT.get(said, "")
    return ""


def died_thread_frames(stderr: str) -> list[Frame]:
    """faulthandler's frames of the thread that died (the last fatal error), innermost first, up to
    crashmatrix's own: its launcher's frames below the program say nothing of the failure. Where that
    dump is not whole, the last one before it that is: workers that die at once write their dumps into one
    stderr together, and any of them can come out interleaved with another's (seen with 4 forked workers:
    the last dump cut short after its first frame, or every dump torn). Where none is whole, the last
    with any frames."""
    blocks = [_died_block(stderr, fatal.end()) for fatal in reversed(list(finditer(_FATAL_ERROR, stderr)))]
    for block in [b for b in blocks if _is_whole(b)] + blocks:
        out = []
        for line in block.splitlines():
            frame = faulthandler_frame(line)
            if frame is None:
                continue
            if is_ours(frame.file):
                break
            out.append(frame)
        if out:
            return out
    return []


# A frame line no other writer's bytes broke into: a function's own name (`<module>`, `<lambda>` too).
_WHOLE_FRAME = re.compile(r'^\s+File "[^"]*", line \d+ in [\w<>]+$')
_OUTERMOST = frozenset({"<module>", "_bootstrap", "_bootstrap_inner"})  # a process's, a thread's
_MAX_DUMPED_FRAMES = 100  # faulthandler's depth: a deeper stack's dump ends with "  ..." instead


def _is_whole(block: str) -> bool:
    """Whether a thread's dump came out untorn: every line a whole frame, down to the outermost."""
    lines = block.splitlines()
    if not lines or not all(_WHOLE_FRAME.match(line) for line in lines):
        return False
    return len(lines) >= _MAX_DUMPED_FRAMES or lines[-1].rsplit(" in ", 1)[-1] in _OUTERMOST


def _died_block(stderr: str, at: int) -> str:
    """The frames faulthandler dumped after `at` for the thread that died. Where that thread ran no Python
    (a C++ library's own, as gloo's that aborts on a collective mismatch), faulthandler lists every thread
    as `Thread 0x...`: the program's thread is then the one not started by threading."""
    died = _DIED_THREAD.search(stderr, at)
    if died:
        return died.group(1)
    # A thread listed with `<no Python frame>` tells nothing (Python 3.12 lists gloo's own there too, first)
    listed = [m.group(1) for m in _LISTED_THREAD.finditer(stderr, at) if 'File "' in m.group(1)]
    started = [b for b in listed if b.rstrip().endswith("in _bootstrap")]
    return next((b for b in listed if b not in started), listed[0] if listed else "")


def python_report_frame(text: str) -> str:
    """The reports' frames (rebuild_storage_fd, _pin_memory_loop) where a Python stack shows them."""
    found = last_match(_PY_REPORT_FRAME, text)
    return f"{found.group(3)} ({os.path.basename(found.group(1))}:{found.group(2)})" if found else ""


# faulthandler's dump on a fatal signal: `Fatal Python error: Bus error`, then the thread that died
# (`Current thread 0x... (most recent call first):`, or `Stack (...)` where only it is dumped) with
# its frames, innermost first; the process's other threads follow as `Thread 0x...`. A thread that died while
# Python collected garbage (a `__del__` at shutdown) is said so on a line of its own before its frames.
_FATAL_ERROR = re.compile(r"^Fatal Python error: ", re.M)
_COLLECTING = r"(?:[ \t]+Garbage-collecting\n)?"
_DIED_THREAD = re.compile(
    rf"^(?:Current thread 0x[0-9a-f]+|Stack) \(most recent call first\):\n{_COLLECTING}((?:[ \t]+File .*(?:\n|$))*)",
    re.M,
)
_LISTED_THREAD = re.compile(
    rf"^Thread 0x[0-9a-f]+ \(most recent call first\):\n{_COLLECTING}((?:[ \t]+File .*(?:\n|$))*)", re.M
)


def own_fault_frame(stderr: str) -> str:
    """`strhub/data/dataset.py:98 in _preprocess_labels`: the program's innermost own frame in
    faulthandler's dump of the thread that died (the last fatal error in stderr), its path from the app's
    root (app_root), a probe's as `probes/fault.py`; "" where it has none."""
    frames = died_thread_frames(stderr)
    own = next((f for f in frames if is_programs(f)), None)
    return own_text(own, [(f, "") for f in frames]) if own else ""


# A pointer the program makes from a bare address (ctypes), handed to native code as if it were memory
_RAW_POINTER = re.compile(
    r"\bctypes\.(?:cast|c_void_p|string_at|memmove|memset)\(|\.from_address\(|\bctypeslib\.as_array\("
)
# A view the program describes itself, shape and strides over a buffer, which nothing checks against the buffer
# (numpy's own docs: as_strided "has to be used with extreme care"): a library that copies it reads what it says
_STRIDED_VIEW = re.compile(r"\bstride_tricks\.as_strided\(|\bnp\.ndarray\([^)]*\bstrides\s*=")
# The program's own unmasking of floating-point exceptions (C's feenableexcept, through ctypes): an IEEE 0/0 or x/0,
# a NaN or an inf where the CPU's default is, then traps, and the process dies by SIGFPE in whichever code divided
_FP_TRAPS = re.compile(r"\bfeenableexcept\s*\(")
# A file the program maps into memory: reading it past an end that moved (truncated, rewritten) is a SIGBUS
_FILE_MAPPING = re.compile(
    r"\bmemmap\(|\bmmap\.mmap\(|\bmmap_mode\s*=\s*['\"]|\bopen_memmap\(|\btorch\.from_file\(|Storage\.from_file\("
    r"|\bmmap\s*=\s*True\b"  # torch.load(path, mmap=True)
)


def raw_pointer_line(stderr: str) -> str:
    """`zoo/modes/decode.py:26`: where the function of the dying thread's innermost own frame makes a pointer from
    a bare address (ctypes.cast, from_address, np.ctypeslib.as_array): the memory a library then died reading
    was the program's word, not the library's. "" where it makes none, or its source is not on this machine."""
    return _own_line(stderr, _RAW_POINTER, within_class=False, callees=True)


def strided_view_line(stderr: str) -> str:
    """`zoo/modes/windows.py:18`: where the function of the dying thread's innermost own frame, or its class, makes
    a view by its own strides (numpy's as_strided, an ndarray over a buffer with strides=): a library that died
    copying it read the memory the view described (the thirty-fifth held-out set's ts_worker_as_strided_segv); or
    where the program's function that made what the dying line reads does (the hundred-and-third set's
    windows_strided_worker: `fr = frames(signal, ...)`, a module function's as_strided over a memory map, read past
    the map's end). "" otherwise."""
    return _own_line(stderr, _STRIDED_VIEW, within_class=True, callees=True)


def fp_traps_line(stderr: str) -> str:
    """`zoo/modes/clips.py:15`: for a death by SIGFPE, where a file of the dying thread's own frames unmasks
    floating-point exceptions (feenableexcept: a worker_init_fn, a setup function): the division that then trapped
    did what IEEE says, a NaN or an inf, and the program asked for the trap (the thirty-eighth held-out set's
    mx_worker_fpe_trap). "" otherwise."""
    if "Fatal Python error: Floating point exception" not in stderr:
        return ""
    return _in_own_files(stderr, _FP_TRAPS)


def file_mapping_line(stderr: str) -> str:
    """`zoo/modes/cache.py:14`: for a death by SIGBUS, where the dying thread's innermost own frame's function or
    its class maps a file into memory (np.memmap, mmap.mmap, mmap_mode=, torch.from_file): a bus error reading a
    mapping is a file that changed under it. "" otherwise."""
    if "Fatal Python error: Bus error" not in stderr:
        return ""
    # Not the files' other functions: a review's programs died by SIGBUS writing shared memory a full /dev/shm could
    # not back while a file elsewhere mapped another file (an np.memmap that stayed whole, a help string's
    # `mmap=True`), and were told to keep a file whole that was never changed
    return _own_line(stderr, _FILE_MAPPING, within_class=True)


def released_mapping_line(stderr: str) -> str:
    """`lifetimes/shards.py:23`: for a death by SIGSEGV, where the program mapped the memory the dying line read, in
    its function or class or in the program's code its data came from (a `with` block's mapping, a loader's class): a
    view (torch.frombuffer, np.frombuffer, a memmap's array) read after its mapping was closed or unmapped (the
    eighty-seventh set's view_outlives_mapping). "" otherwise."""
    if "Fatal Python error: Segmentation fault" not in stderr:
        return ""
    return _own_line(stderr, _FILE_MAPPING, within_class=True, callees=True)


def _in_own_files(stderr: str, pattern: re.Pattern) -> str:
    """The first line matching pattern in the files of the dying thread's own frames, innermost first, as
    `path:line` from the app's root: a setting made in another function of the file (a worker_init_fn's
    feenableexcept)."""
    for own in dict.fromkeys(f for f in died_thread_frames(stderr) if is_programs(f)):
        try:
            with open(own.file, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        found = next((n for n, text in enumerate(lines, 1) if pattern.search(text.split("#", 1)[0])), 0)
        if found:
            return own_text(own, [(own, "")]).rsplit(":", 1)[0] + f":{found}"
    return ""


_Scope = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _own_line(stderr: str, pattern: re.Pattern, within_class: bool, callees: bool = False) -> str:
    """The first line matching pattern in the function of the dying thread's innermost own frame (or, within_class,
    in the class that defines it), as `path:line` from the app's root; callees: else in the program's functions and
    classes whose result the dying line reads (the eighty-fifth set's restore, whose map_flat made the views from a
    bare address), in its file or in a module of the program's it imports them from."""
    frames = died_thread_frames(stderr)
    own = next((f for f in frames if is_programs(f)), None)
    if own is None or not own.line.isdigit():
        return ""
    parsed = _parsed(own.file)
    if parsed is None:
        return ""
    tree, lines = parsed
    line = int(own.line)
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef) + ((ast.ClassDef,) if within_class else ())
    enclosing = [
        node for node in ast.walk(tree) if isinstance(node, kinds) and node.lineno <= line <= (node.end_lineno or 0)
    ]
    if not enclosing:
        return ""
    # the outermost class where asked (its __init__ maps the file that __getitem__ reads), else the innermost function
    classes = [n for n in enclosing if isinstance(n, ast.ClassDef)]
    scope = min(classes, key=lambda n: n.lineno) if classes else max(enclosing, key=lambda n: n.lineno)
    scopes: list[tuple[str, _Scope]] = [(own.file, scope)]
    scopes += _called_here(own.file, tree, scope, lines[line - 1]) if callees else []
    for path, each in scopes:
        other = _parsed(path) if path != own.file else None  # a module it imports from: parsed as it was found
        text = other[1] if other is not None else lines
        for number in range(each.lineno, (each.end_lineno or each.lineno) + 1):
            if pattern.search(text[number - 1]):
                return program_place(Frame(each.name, path, str(number)), [own]).rsplit(" in ", 1)[0]
    return ""


@functools.lru_cache(maxsize=64)
def _parsed(path: str) -> tuple[ast.Module, list[str]] | None:
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read()
        return ast.parse(source), source.splitlines()
    except (OSError, SyntaxError, ValueError):
        return None


def _called_here(path: str, tree: ast.Module, scope: ast.AST, dying: str) -> list[tuple[str, _Scope]]:
    """The program's own functions whose result the dying line reads, directly or through the names it was passed on
    by (`shard = map_flat(path, model)`, then `p.copy_(shard[name])`; `ptr, arr = self.decode(i)`, `frame =
    torch.from_numpy(arr)`, then `frame.amax(1)`; `with MappedShard(path) as shard:`, `feats = shard.features()`), in
    the order of the bindings, each with its file: the module's top-level functions and classes (`feats =
    MappedFeatures(path)`: the whole class, whose `__init__` made the tensor the dying line reads; the eightieth set's
    mm_ctypes_munmap), those it imports from a module of the program's (`from lifetimes.shards import MappedShard`,
    the eighty-seventh set's view_outlives_mapping), and the methods of the class that defines scope called on
    `self`. Memory a helper made and the dying line used, not a helper that read other memory before it (a review's
    checksum over a batch's bytes, then a crash in another op)."""
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    defined = {n.name: (path, n) for n in tree.body if isinstance(n, kinds)}
    methods = {name: (path, node) for name, node in _methods_of_class_around(tree, scope).items()}
    bindings = _bindings(scope)
    read = set(re.findall(r"[A-Za-z_]\w*", dying))
    feeding: list[tuple[int, set[str], ast.AST]] = []
    grew = True
    while grew:  # the names the dying line reads, and the names those were made from
        grew = False
        for binding in bindings:
            lineno, names, value = binding
            if binding not in feeding and names & read:
                feeding.append(binding)
                read |= {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
                grew = True
    found: list[tuple[str, _Scope]] = []
    for _lineno, _names, value in sorted(feeding, key=lambda b: b[0]):
        for call in (c for c in ast.walk(value) if isinstance(c, ast.Call)):
            func = call.func
            callee = None
            if isinstance(func, ast.Name):
                callee = defined.get(func.id) or _imported(path, tree, func.id)
            elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
                callee = methods.get(func.attr)
            if callee is not None and callee[1] is not scope and callee not in found:
                found.append(callee)
    return found


def _bindings(scope: ast.AST) -> list[tuple[int, set[str], ast.AST]]:
    """(line, names bound, the expression bound) of each assignment and `with ... as` in scope."""
    found: list[tuple[int, set[str], ast.AST]] = []
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            names = {t.id for target in node.targets for t in ast.walk(target) if isinstance(t, ast.Name)}
            found.append((node.lineno, names, node.value))
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None:
                    names = {t.id for t in ast.walk(item.optional_vars) if isinstance(t, ast.Name)}
                    found.append((node.lineno, names, item.context_expr))
    return found


def _imported(path: str, tree: ast.Module, name: str) -> tuple[str, _Scope] | None:
    """The function or class `name` that the module at path imports (`from pkg.mod import name`, `from .mod import
    name`) from a file of the program's beside it or in a folder above (the app's own package), with its file; None
    for a library's or one not found."""
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or not node.module:
            continue
        if not any(alias.name == name and alias.asname in (None, name) for alias in node.names):
            continue
        relative = os.path.join(*node.module.split("."))
        here = os.path.dirname(os.path.abspath(path))
        bases = [here] if node.level == 0 else []
        if node.level:
            base = here
            for _ in range(node.level - 1):
                base = os.path.dirname(base)
            bases = [base]
        else:
            for _ in range(3):  # the package's root a few folders up, as a project lays one out
                here = os.path.dirname(here)
                bases.append(here)
        for base in bases:
            for candidate in (os.path.join(base, relative + ".py"), os.path.join(base, relative, "__init__.py")):
                if not os.path.isfile(candidate) or not is_programs(Frame(name, candidate, "1")):
                    continue
                parsed = _parsed(candidate)
                if parsed is None:
                    return None
                kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
                defined = next((n for n in parsed[0].body if isinstance(n, kinds) and n.name == name), None)
                return (candidate, defined) if defined is not None else None
    return None


def _methods_of_class_around(tree: ast.Module, scope: ast.AST) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """{name: method} of the class whose body holds scope (a method); {} for a function outside any class."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and scope in node.body:
            return {n.name: n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return {}


# --- the kernel log --------------------------------------------------------------

# e.g. `python[1234]: segfault at 0 ip 00007f.. sp 00007ff.. error 4 in libc.so.6[7f0..+1a5000]`; newer
# kernels print the offset in the file first: `in libc.so.6[156219,7f0..+1a5000]`; traps print `ip:`.
_KERNEL_FAULT = re.compile(
    r"\[(?P<pid>\d+)\]:? (?P<what>segfault at \w+|trap [\w ]+?|general protection fault|[\w ]+?) "
    r"ip[: ](?P<ip>[0-9a-f]+).*? in (?P<lib>[^\s\[]+)\[(?:(?P<off>[0-9a-f]+),)?(?P<base>[0-9a-f]+)\+[0-9a-f]+\]"
)
_KERNEL_OOM = [
    re.compile(r"(?:Memory cgroup out of memory|Out of memory): Killed process (?P<pid>\d+) \((?P<name>[^)]*)\).*"),
    re.compile(r"oom-kill:constraint=[^,]*,.*?task=(?P<name>[^,]*),pid=(?P<pid>\d+).*"),
]


def read_kernel_log(since_monotonic: float | None = None) -> list[str]:
    """Kernel log messages, newest last; [] where unreadable (unprivileged, a container). Never blocks."""
    try:
        fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return _dmesg()
    lines, floor = [], None if since_monotonic is None else (since_monotonic - 2.0) * 1e6
    try:
        while True:
            try:
                record = os.read(fd, 8192).decode("utf-8", errors="replace")
            except BlockingIOError:
                break
            except OSError:  # EPIPE: a record was overwritten while reading; go on with the next
                continue
            if not record:
                break
            head, _, message = record.partition(";")
            stamp = head.split(",")
            if floor is not None and len(stamp) > 2 and stamp[2].isdigit() and int(stamp[2]) < floor:
                continue
            lines.append(message.split("\n", 1)[0])
    finally:
        os.close(fd)
    return lines


def _dmesg() -> list[str]:
    try:
        done = subprocess.run(["dmesg"], capture_output=True, text=True, timeout=2, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return done.stdout.splitlines() if done.returncode == 0 else []


def kernel_fault_place(lines: list[str], pids: set[int], stderr: str = "") -> str:
    """`libc.so.6 (+0x156219)` from the kernel's line about one of pids, else "". The kernel gives a
    file name only: an extension module's is completed from faulthandler's list in stderr."""
    for line in reversed(lines):
        m = _KERNEL_FAULT.search(line)
        if m and int(m.group("pid")) in pids:
            lib = extension_by_module(os.path.basename(m.group("lib")), stderr)
            if m.group("off"):
                return f"{lib} (+0x{m.group('off')})"
            return f"{lib} (ip 0x{m.group('ip')}, {m.group('what')})"
    return ""


def kernel_oom_kill(lines: list[str], pids: set[int]) -> str:
    """The kernel's OOM-killer line about one of pids, else ""."""
    for line in reversed(lines):
        for pattern in _KERNEL_OOM:
            m = pattern.search(line)
            if m and int(m.group("pid")) in pids:
                return m.group(0).strip()[:200]
    return ""


# --- the hook for engine._finish -------------------------------------------------


def _pids_named(error: str, pid: int) -> set[int]:
    return {pid} | {int(p) for p in re.findall(r"\bpid\(?s?\)? (\d+)", error)}


# torchrun's agent raising ChildFailedError for a rank: its report, never where the rank failed
_LAUNCHERS_OWN = re.compile(r"^torch/distributed/(?:launcher|elastic)/")


def refine(verdict: Verdict, ev: Evidence, kernel_log=read_kernel_log) -> tuple[Verdict, str]:
    """The verdict with the OOM killer recognised and the hang's place in its error; and `where`."""
    if verdict.outcome == Outcome.TIMEOUT:
        clause, where = ev.hang
        if clause:
            verdict = dataclasses.replace(verdict, error=verdict.error.split(";")[0] + "; " + clause)
        if verdict.signature == HANG and where:
            # Two hangs in two places are two failures: signed by where each waits (signature.hang_signature).
            verdict = dataclasses.replace(verdict, signature=hang_signature(where))
        return dataclasses.replace(verdict, rank=_straggler(clause)), where
    if verdict.outcome == Outcome.RANK_CRASH and f"; then killed by {verdict.signal}" in verdict.error:
        return verdict, _where_raised(verdict, verdict.told)  # where its own exception was raised
    if verdict.outcome == Outcome.RANK_CRASH:
        return verdict, _where_died(verdict, ev, set(), lambda: [], own=verdict.told)
    if verdict.told and verdict.outcome != Outcome.WORKER_CRASH:
        # a rank's own exception, from its own traceback
        return verdict, _started_at(_where_raised(verdict, verdict.told), verdict, ev.stderr)
    if verdict.outcome not in (Outcome.CRASH, Outcome.WORKER_CRASH) or not verdict.signal or _then_killed(verdict):
        where = _started_at(_where_raised(verdict, ev.stderr), verdict, ev.stderr)
        # a rank known only from its launcher's report: the launcher's own raise of it is no place of the rank's
        return verdict, "" if verdict.rank is not None and _LAUNCHERS_OWN.match(where) else where
    if verdict.signal == "SIGINT" and verdict.error.startswith("KeyboardInterrupt"):
        return verdict, _where_raised(verdict, ev.stderr)  # the traceback Python printed before its SIGINT
    pids = _pids_named(verdict.error, ev.pid)
    if verdict.signal == "SIGKILL":
        lines = kernel_log(ev.started)
        reason = kernel_oom_kill(lines, pids) or _cgroup_says_oom(ev)
        if reason:
            return Verdict(Outcome.OOM, verdict.signal, f"killed by the kernel's OOM killer: {reason}"), ""
    return verdict, _where_died(verdict, ev, pids, lambda: kernel_log(ev.started))


def _then_killed(verdict: Verdict) -> bool:
    """A crash whose own failure came first, before its death at exit (classify.then_killed): placed where that
    failure was raised, not where the signal struck."""
    return verdict.error.endswith(f"; then killed by {verdict.signal} {AT_EXIT}")


_ONE_STRAGGLER = re.compile(r"^rank (\d+) [^;]*, outside any collective(?:;|$)")


def _straggler(clause: str) -> int | None:
    """The rank a hung distributed cell waits for, where the hang's clause (straggler.summarize) names
    exactly one rank outside any collective while others wait in one: the `rank` of a timeout's row."""
    found = _ONE_STRAGGLER.match(clause)
    if not found or clause.count("outside any collective") != 1:
        return None
    return int(found.group(1))


def _cgroup_says_oom(ev: Evidence) -> str:
    if not ev.oom_counter:
        return ""
    path, before = ev.oom_counter
    after = oom_kill_count(path)
    if after is None or after <= before:
        return ""
    return f"{path} counted {after - before} oom_kill during the run"


def _started_at(place: str, verdict: Verdict, stderr: str) -> str:
    """A child's exception placed in library frames alone, with the program's call that started the child."""
    worker = verdict.outcome == Outcome.WORKER_CRASH
    call = starting_call(stderr, verdict.error, worker) if place and verdict.outcome != Outcome.TIMEOUT else ""
    return f"{place}; {call}" if call and call not in place else place


def _where_raised(verdict: Verdict, text: str) -> str:
    """An exception's place (exception_place); a worker lost without a signal by the report's frame
    (rebuild_storage_fd, _pin_memory_loop) where the main process's stack shows one."""
    if verdict.outcome in (Outcome.PASS, Outcome.SKIP, Outcome.ERROR):  # error: crashmatrix's, not the program's
        return ""
    reported = python_report_frame(text) if verdict.outcome == Outcome.WORKER_CRASH else ""
    if verdict.signature == WORKER_EXITED:  # the worker's own line, where it printed one (else inject records it)
        return _worker_reported(text) or _heard_of_it(text, text, reported)
    if verdict.signature == WATCHDOG_ENDED:  # no traceback: where its watchdog's dump found the main thread
        return watchdog_place(text)
    # a thread its stack's memory refused: where the program started it, as any exception (not an allocating op's)
    allocated = verdict.outcome == Outcome.OOM and not verdict.error.startswith(THREAD_REFUSED)
    return reported or exception_place(text, oom=allocated, error=verdict.error)


def _worker_reported(text: str) -> str:
    """The place of the exception a DataLoader worker printed as it ended (multiprocessing's `Process NAME:` and
    its traceback: a BaseException its loop does not catch, which ends it with status 1); "" where none did."""
    for traceback in read_output(text).tracebacks:
        if any(
            c.function == "_worker_loop" and c.path.replace("\\", "/").endswith(_WORKER_LOOP) for c in traceback.calls
        ):
            end = traceback.exception_at
            if end >= 0:
                return exception_place("\n".join([TRACEBACK_HEAD, *traceback.lines[: end + 1]]))
    return ""


_WORKER_LOOP = "torch/utils/data/_utils/worker.py"


def watchdog_place(text: str) -> str:
    """Where faulthandler's watchdog found the process waiting (its last dump in text): the main thread's (the
    listed thread not started by threading) innermost frame, a library's then the program's that called it
    (`torch/distributed/distributed_c10d.py:3252 in all_reduce; app/train.py:35 in run`); "" where none."""
    dumps = list(finditer(WATCHDOG_DUMP, text))
    if not dumps:
        return ""
    block = _died_block(dumps[-1].group(0), 0)
    frames = [f for f in (faulthandler_frame(line) for line in block.splitlines()) if f and not is_ours(f.file)]
    own = next((f for f in frames if is_programs(f)), None)
    if own is None:
        return ""
    placed = own_text(own, [(f, "") for f in frames])
    return placed if frames[0] is own else f"{library_text(frames[0])}; {placed}"


def _where_died(verdict: Verdict, ev: Evidence, pids: set[int], kernel_lines, own: str = "") -> str:
    """torch's backtrace first; the kernel log (read only then, a dmesg per crash where /dev/kmsg is shut)
    when torch named no place; then the frames of the program that led there (in `own`, the dying rank's
    dump, where given; else in the file the program sent faulthandler's dumps to)."""
    faults = torch_fault_frames(ev.stderr)
    # The main process's own fault for a crash; a worker's or a rank's (another pid) for the others.
    mine = [f for f in faults if (f[0] == ev.pid) == (verdict.outcome == Outcome.CRASH) and f[1] == verdict.signal]
    # a failed assert() in native code names its own file and line, where abort()'s frame is libc's
    asserted = native_assertion_place(ev.stderr) if verdict.signal == "SIGABRT" else ""
    place = asserted or (mine or faults or [(0, "", "")])[-1][2]
    place = place or kernel_fault_place(kernel_lines(), pids, ev.stderr)
    own_frame = (
        own_fault_frame(own or ev.stderr)
        or (own_fault_frame(programs_fault_dumps(ev.cell_dir)) if ev.cell_dir else "")
        or death_dump_frame(ev.cell_dir, pids, verdict.signal)
    )
    # Where the main process heard of it (rebuild_storage_fd...) only when the dying process left no frame;
    # a rank's worker: in that rank's traceback (verdict.told), not the launcher's that ends stderr.
    heard = verdict.told or ev.stderr
    reported = "" if own_frame else python_report_frame(heard)
    if place or own_frame or verdict.outcome != Outcome.WORKER_CRASH:
        return "; ".join(p for p in (place, reported, own_frame) if p)
    # A worker killed without a word (SIGKILL: no handler runs): where the main process's loop heard of it,
    # said as such (not a frame of the death's, so no signature is signed with it). Whether torch was then
    # unpickling the dead worker's batch (rebuild_storage_fd) is a race of the same death: said, but after
    # "heard of it", so that every repeat's `where` leads with the same words and ends at the same line.
    # A rank whose stack holds none of the program's frames (Lightning's loop drew the batch): the last
    # traceback that does, where the job's own process heard of the rank's failure (trainer.fit's line).
    return _heard_of_it(heard, ev.stderr, reported)


_DEATH_DUMP_NAMES = frozenset(signal.Signals(n).name for n in DEATH_DUMPS)


def death_dump_frame(cell_dir: str, pids: Collection[int], signal_name: str) -> str:
    """`zoo/modes/decode.py:24 in __getitem__`: where a process that a signal faulthandler does not catch
    (SIGXCPU) ended was, from the stacks it wrote as it died (incell/stackdump.py's DEATH_DUMPS, under inject):
    its main thread's innermost frame of the program's, above the loop multiprocessing runs a worker in. Only
    for the pids the output says died so (torch names the worker), and only for such a signal: the same file
    holds a SIGTERM's dump, which a process ended by SIGXCPU never reached."""
    if not cell_dir or signal_name not in _DEATH_DUMP_NAMES:
        return ""
    for pid in sorted(pids):
        thread = main_thread(parse_faulthandler(dumped(cell_dir, pid)), pid)
        frame = helper_frame(thread)
        if thread is not None and frame is not None:
            return place_text(frame, thread.frames)
    return ""


def _heard_of_it(heard: str, stderr: str, reported: str) -> str:
    """`the main process heard of it in rebuild_storage_fd (reductions.py:538), at app/train.py:27 in main`: the
    program's line whose loop heard of a worker's end; `reported` alone where no traceback shows the program's."""
    caller: Frame | None = None
    frames: list[tuple[Frame, str]] = []
    for text in [heard, *reversed(each_traceback(stderr))]:
        frames, _exception = last_traceback(text)
        caller = next((f for f, _code in frames if is_programs(f)), None)
        if caller:
            break
    if not caller:
        return reported
    during = f" in {reported}," if reported else ""
    heard_at = f"the main process heard of it{during} at {own_text(caller, frames)}"
    closed = _pipe_closed_before(caller) if _KILLED_BY_SIGPIPE.search(stderr) else 0
    if closed:  # the child wrote to a pipe the program had closed: where the reader stopped is the cause
        return f"{own_text(Frame(caller.func, caller.file, str(closed)), frames)}; {heard_at}"
    return heard_at


# A child dead by SIGPIPE, as subprocess and torch's loader report it (`died with <Signals.SIGPIPE: 13>`, `is killed by
# signal: Broken pipe`): it wrote to a pipe whose reading end was closed
_KILLED_BY_SIGPIPE = re.compile(r"<Signals\.SIGPIPE: 13>|killed by signal: Broken pipe|terminated with signal SIGPIPE")
# the program closing the pipe a child of its own writes to (subprocess.Popen(..., stdout=PIPE))
_CLOSES_CHILDS_PIPE = re.compile(r"\.stdout\.close\(\)")


def _pipe_closed_before(caller: Frame) -> int:
    """The line, in the function of the program's frame that heard of a child's SIGPIPE, before that frame's line,
    where the program closed a child's stdout (the ninety-eighth held-out set's prep_vocab_head: the main read 8 lines
    of its CLI's table and closed the pipe; the CLI, which takes SIGPIPE's default action, died at its next write and
    left no frame); 0 where there is none or the source cannot be read."""
    parsed = _parsed(caller.file)
    if parsed is None or not caller.line.isdigit():
        return 0
    tree, lines = parsed
    line = int(caller.line)
    functions = [
        n
        for n in ast.walk(tree)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.lineno <= line <= (n.end_lineno or 0)
    ]
    start = max((n.lineno for n in functions), default=1)
    found = [n for n in range(start, line) if _CLOSES_CHILDS_PIPE.search(lines[n - 1])]
    return found[-1] if found else 0
