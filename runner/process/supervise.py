"""Launching one cell run as a fresh process and ending its whole process tree.

A cell run is started in a session of its own, with its output going straight
to files (a flood neither blocks it nor grows our memory), and with a token in
its environment. Its tree is found two ways: by parentage under /proc, and by
that token, which every descendant inherits even after setsid(). The
controller also makes itself a child subreaper, so a grandchild orphaned by the
cell is re-parented to us rather than to init and can be reaped.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field

TOKEN_VAR = "CRASHMATRIX_TOKEN"
_PR_SET_CHILD_SUBREAPER = 36
_PR_GET_CHILD_SUBREAPER = 37
_CLK_TCK = os.sysconf("SC_CLK_TCK")

# When each token's run was launched, in clock ticks since boot as /proc/PID/stat counts a process's
# start: only a process started since then can carry the token, so an older one's environment need
# not be read (reading every process's environ is the costly part of finding a tree on a busy machine).
_BORN: dict[str, int] = {}
# Each token's run's own pid, from start() to forget(): its Popen waits for it, so reaping orphans
# must leave it alone, whichever thread or session started it.
_OWNED: dict[str, int] = {}
_OWNED_LOCK = threading.Lock()


def set_subreaper(on: bool) -> bool | None:
    """Make this process a child subreaper (or not); returns what it was, None where unsupported.

    Only while cells run: a process that stays a subreaper (a notebook or test runner using the Python
    API) would adopt every daemon its other children start, and leave their zombies unreaped.
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        was = ctypes.c_int(0)
        if libc.prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(was), 0, 0, 0) != 0:
            return None
        if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1 if on else 0, 0, 0, 0) != 0:
            return None
        return bool(was.value)
    except (OSError, AttributeError):
        return None


@dataclass
class Launch:
    argv: list
    env: dict
    cwd: str
    stdout_path: str
    stderr_path: str
    token: str
    # a distributed cell's ranks as Slurm tasks: where each writes how it ended (crashmatrix.process.slurm_tasks)
    ranks_dir: str | None = None


@dataclass
class Running:
    launch: Launch
    popen: subprocess.Popen
    started: float
    deadline: float | None
    pidfd: int | None = None
    term_sent_at: float | None = None
    timed_out: bool = False
    leftovers: list = field(default_factory=list)
    _pidfd_lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def close_pidfd(self) -> None:
        """Close the pidfd, once: a stop from another thread (StopRegistry.end) and the engine that owns the
        run both end it, and a second os.close of the number would close whatever file took it meanwhile."""
        with self._pidfd_lock:
            fd, self.pidfd = self.pidfd, None
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass


def start(launch: Launch, timeout: float | None) -> Running:
    """Start the run; raises OSError when the program cannot be launched."""
    _BORN[launch.token] = int(time.clock_gettime(time.CLOCK_BOOTTIME) * _CLK_TCK) - 1
    # before Popen: on a loaded box a short program can end before Popen returns, and its wall time read 0.000
    started = time.monotonic()
    with open(launch.stdout_path, "wb") as out, open(launch.stderr_path, "wb") as err:
        popen = subprocess.Popen(
            launch.argv,
            env=launch.env,
            cwd=launch.cwd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
            close_fds=True,
        )
    with _OWNED_LOCK:
        _OWNED[launch.token] = popen.pid
    run = Running(launch, popen, started, started + timeout if timeout else None)
    try:
        run.pidfd = os.pidfd_open(popen.pid)
    except (AttributeError, OSError):
        run.pidfd = None  # old kernel: the engine polls instead
    return run


# --- finding a tree ---------------------------------------------------------


def _proc_table(*, zombies: bool = False) -> dict[int, int]:
    """pid -> ppid for every process we can see (zombies only when asked: they cannot be killed)."""
    return {pid: ppid for pid, (ppid, _start) in _proc_stats(zombies=zombies).items()}


def _proc_stats(*, zombies: bool = False) -> dict[int, tuple[int, int]]:
    """pid -> (ppid, start time in clock ticks since boot) for every process we can see."""
    table = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # The command name may hold spaces and parentheses: fields follow the last ')'.
        rest = stat[stat.rfind(b")") + 2 :].split()
        if len(rest) > 19 and (zombies or rest[0] != b"Z"):
            table[int(entry.name)] = (int(rest[1]), int(rest[19]))
    return table


def _has_token(pid: int, needle: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return needle in f.read()
    except OSError:
        return False


def tree(root: int | None, token: str | None) -> set[int]:
    """Every live process of a cell: descendants of root, processes carrying the token, and their descendants."""
    table = _proc_stats()
    me = os.getpid()
    members = set()
    if root is not None and root in table:
        members.add(root)
    if token:
        needle = f"{TOKEN_VAR}={token}\0".encode()
        born = _BORN.get(token, 0)
        members |= {
            pid for pid, (_ppid, start) in table.items() if pid != me and start >= born and _has_token(pid, needle)
        }
    children: dict[int, list[int]] = {}
    for pid, (ppid, _start) in table.items():
        children.setdefault(ppid, []).append(pid)
    stack = list(members)
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in members and child != me:
                members.add(child)
                stack.append(child)
    return members


def process_stats() -> dict[int, tuple[int, int]]:
    """pid -> (ppid, start time in clock ticks since boot) of every live process we can see."""
    return _proc_stats()


def environ(pid: int) -> dict[str, str]:
    """The environment a process was started with ({} where unreadable). Variables it set itself later
    are not in it: /proc shows the block exec gave it."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            data = f.read()
    except OSError:
        return {}
    pairs = (item.decode(errors="replace").partition("=") for item in data.split(b"\0") if item)
    return {name: value for name, _, value in pairs}


def describe(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        cmd = "?"
    return f"{pid} {cmd[:120]}"


# What Python's multiprocessing starts and keeps by design: its resource tracker (started with the
# first spawned process or semaphore) and its forkserver serve the program's processes until the last ends,
# then exit by themselves, so they may outlive the cell's main process by a moment. They are ended
# with the rest of the tree, but they are not something the cell left behind.
_KEPT_BY_DESIGN = (b"from multiprocessing.resource_tracker import main", b"from multiprocessing.forkserver import main")


def kept_by_design(pid: int) -> bool:
    """Whether the process is multiprocessing's resource tracker or forkserver (by its whole command line)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmdline = f.read()
    except OSError:
        return False
    return any(code in cmdline for code in _KEPT_BY_DESIGN)


def signal_all(pids, sig) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def reap_orphans() -> None:
    """Reap zombies re-parented to us (we are a subreaper), leaving Popen's own children alone (owned_pids)."""
    exclude = owned_pids()
    # Ask the kernel first: usually nothing has ended, or only orphans have, and /proc need not be read.
    while True:
        try:
            ended = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return  # no child at all
        if ended is None:
            return
        if ended.si_pid in exclude:
            break  # a run's own process, left for its Popen: look past it below
        try:
            os.waitpid(ended.si_pid, os.WNOHANG)
        except ChildProcessError:
            pass
    me = os.getpid()
    for pid, ppid in _proc_table(zombies=True).items():
        if ppid == me and pid not in exclude:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


def forget(token: str) -> None:
    """A finished run's launch time and pid are needed no more (an unknown token only makes tree() scan wider)."""
    _BORN.pop(token, None)
    with _OWNED_LOCK:
        _OWNED.pop(token, None)


def owned_pids() -> set[int]:
    """The pids of this process's runs started and not yet forgotten: what reap_orphans must exclude."""
    with _OWNED_LOCK:
        return set(_OWNED.values())


def kill_tree(token: str, grace: float) -> list[str]:
    """SIGTERM every process carrying the cell's token (and their descendants), wait up
    to grace, SIGKILL what is left; returns what had to be killed, less multiprocessing's own
    helpers (kept_by_design), which are ended all the same."""
    pids = tree(None, token)
    if not pids:
        return []
    # A process already exiting has no command line left (the kernel freed its memory): it ended by itself,
    # as multiprocessing's resource tracker does once the main has gone, and was left behind by nobody.
    seen = [d for p in sorted(pids) if not kept_by_design(p) and (d := describe(p)).partition(" ")[2] not in ("", "?")]
    signal_all(pids, signal.SIGTERM)
    end = time.monotonic() + grace
    while time.monotonic() < end and tree(None, token):
        time.sleep(0.02)
    # Processes may fork while dying: kill until nothing of the tree is left.
    for _ in range(5):
        left = tree(None, token)
        if not left:
            break
        signal_all(left, signal.SIGKILL)
        time.sleep(0.01)
    return seen
