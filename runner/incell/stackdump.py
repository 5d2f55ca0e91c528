"""Inside a cell: leave the evidence crashmatrix's forensics read (never imports torch itself).

- Every process of the cell registers faulthandler on DUMP_SIGNAL, writing the
  stacks of all its threads to `<cell dir>/.stacks/<pid>.txt`, so that before a
  timeout's kill the controller can ask each process where it is. A forked
  child (a DataLoader worker) re-registers with a file of its own; spawn and
  forkserver workers run this again at start (crashmatrix.child or sitecustomize).
- The same file gets the stacks of a process that a SIGTERM ends, where SIGTERM was at its default
  (chained: it dumps, then dies by the signal as it would have). A launcher SIGTERMs the other ranks of
  a job once one has failed (torchrun, torch.multiprocessing.spawn), so when a rank's collective times
  out the controller learns where the rank it waited for was (verdict/peers.py). A handler the program
  installs replaces this one; an ignored SIGTERM stays ignored (its disposition passes through exec).
- The same file gets the stacks of a process that a signal faulthandler does not catch ends by its default
  action (DEATH_DUMPS: SIGXCPU, the CPU-time limit a worker_init_fn or a scheduler sets; SIGALRM and the
  other timers a program arms itself), chained as for SIGTERM, so that where a process died is known though
  it printed nothing.
- Once the program imports torch (never earlier, and not at all for a program
  that does not), torch's fatal-signal handler prints the native backtrace of
  a crash (not of an abort: _torch_backtraces), which names the faulting library; DataLoader workers get it too, and
  faulthandler's Python stack of the thread that died, which their own handler
  would otherwise take the place of.

- A program that sends faulthandler's dumps to a file of its own (`faulthandler.enable(file=log)`) keeps them
  there: its call is noted (FAULT_FILE: the file's path), so that the controller reads a crash's Python stack from
  it, and where crashmatrix turns faulthandler off and on again around torch's handler, it is turned on again
  into that file, not the cell's stderr.

The controller reads DUMP_SIGNAL and dump_dir (forensics.py) to ask for the stacks and find them.
"""

from __future__ import annotations

import os
import signal
import sys

from . import importhook

# A real-time signal: SIGUSR2 is taken by torch's own fatal handler (to collect other threads' stacks)
# and by submitit's timeout warning, SIGUSR1 by Lightning's Slurm requeue, SIGQUIT dumps core. glibc
# keeps the first real-time signals for itself (signal.SIGRTMIN already skips them); nothing in
# CPython, torch, NCCL, Slurm or wandb uses SIGRTMIN+9.
DUMP_SIGNAL = signal.SIGRTMIN + 9
DIR_NAME = ".stacks"
# Signals whose default action ends a process and for which nothing else prints a Python stack (faulthandler's
# own are SIGSEGV, SIGFPE, SIGABRT, SIGBUS, SIGILL); each dumps into the process's file, then dies by it: a
# CPU-time limit, the timers a program arms itself (`signal.alarm(60)` as a watchdog, with no handler), and a
# write to a pipe whose reader is gone (SIGPIPE: Python ignores it, but a program piping its log into `head` sets
# it back to the default; _dump_at_default registers it then).
# Not SIGUSR1/SIGUSR2 (Lightning's Slurm requeue, torch's own handler) nor SIGHUP/SIGINT/SIGQUIT.
DEATH_DUMPS = (signal.SIGXCPU, signal.SIGALRM, signal.SIGVTALRM, signal.SIGPROF, signal.SIGPIPE)

_dump_file = None
_installed = False
_stderr_fd: int | None = None  # the cell's stderr as the process started, kept for faulthandler (_keep_stderr)
_enable = None  # faulthandler.enable as the interpreter has it: crashmatrix's own calls (_note_fault_file)
_programs_fault_file = None  # what the program last gave faulthandler.enable (a file or a descriptor), or None
# `<dump dir>/faultfile-PID.txt`: the path of the file the program sent faulthandler's dumps to, and its size then
FAULT_FILE = "faultfile-"


def dump_dir(cell_dir: str) -> str:
    """Where a cell's processes write their stacks on DUMP_SIGNAL, one file per pid."""
    return os.path.join(cell_dir, DIR_NAME)


def dumped(cell_dir: str, pid: int) -> str:
    """What process pid wrote into its own dump file (on DUMP_SIGNAL, as SIGTERM or a DEATH_DUMPS signal ended
    it), at most 512 KiB: read by the controller once the process is gone; "" where it wrote none."""
    try:
        with open(os.path.join(dump_dir(cell_dir), f"{pid}.txt"), encoding="utf-8", errors="replace") as f:
            return f.read(512 * 1024)
    except OSError:
        return ""


def _register() -> None:
    """faulthandler on DUMP_SIGNAL into this process's own file (the file stays open: a handler cannot open one)."""
    global _dump_file
    import faulthandler

    cell_dir = os.environ.get("CRASHMATRIX_CELL_DIR")
    if not cell_dir:
        return
    directory = dump_dir(cell_dir)
    os.makedirs(directory, exist_ok=True)
    new = open(os.path.join(directory, f"{os.getpid()}.txt"), "w")
    faulthandler.register(DUMP_SIGNAL, file=new, all_threads=True, chain=False)
    for ending in (signal.SIGTERM, *DEATH_DUMPS):
        if signal.getsignal(ending) == signal.SIG_DFL:
            faulthandler.register(ending, file=new, all_threads=True, chain=True)
    if _dump_file is not None:
        _dump_file.close()  # the parent's, inherited by fork
    _dump_file = new


_torch_on = False  # torch's fatal-signal handler was turned on in this process (_after_torch)


def _torch_backtraces(torch, on: bool) -> None:
    """torch's fatal-signal handler on or off, but for SIGABRT, whose handler stays the one before (faulthandler's,
    or the program's). glibc aborts on a corrupt heap (`free(): invalid next size`) holding malloc's lock, and
    torch's handler allocates as it collects the backtrace: the process then waited on that lock for ever, a hang
    where alone it dies by SIGABRT (the twenty-first held-out set's i_heap_overrun). An abort's telling words are
    printed before it anyway (glibc's, C++'s terminate ... what()). The disposition is kept as opaque bytes, as
    sigaction(2) gives it: no layout of struct sigaction is assumed."""
    import ctypes

    saved = ctypes.create_string_buffer(1024)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        kept = libc.sigaction(signal.SIGABRT, None, saved) == 0
    except (OSError, AttributeError):
        libc, kept = None, False
    torch._C._set_print_stack_traces_on_fatal_signal(on)
    if kept and libc is not None:
        libc.sigaction(signal.SIGABRT, saved, None)
    if on and libc is not None:
        for fault in FAULTS:
            _blocks_backtrace_requests(libc, fault)


# The faults torch's handler takes (SIGABRT aside, kept above) and asks every other thread's backtrace for, by
# SIGUSR2.
FAULTS = (signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE)


def _blocks_backtrace_requests(libc, fault: int) -> None:
    """SIGUSR2 blocked while a thread runs torch's handler for `fault`. Where threads fault together (OpenMP
    threads writing a mapping a full /dev/shm cannot back) two may enter torch's handler at once; it then asked
    one of them for its backtrace by SIGUSR2 while that thread held the handler's own lock, and the process waited
    for ever where alone it dies by the fault (reproduced: 2 of 30 runs alone with torch's handler on hung, 0 of 140
    with this). A thread in the handler is dying anyway: its backtrace request is then lost after torch's 2 s wait.
    Linux's struct sigaction keeps the handler's mask right after the handler's address (glibc and musl); the mask
    is read back, and the bytes restored where the C library did not take the change as the mask's."""
    import ctypes

    mask_at = ctypes.sizeof(ctypes.c_void_p)
    before = ctypes.create_string_buffer(1024)
    if libc.sigaction(fault, None, before) != 0:
        return
    action = ctypes.create_string_buffer(before.raw, 1024)
    if libc.sigaddset(ctypes.byref(action, mask_at), signal.SIGUSR2) != 0 or libc.sigaction(fault, action, None):
        return
    after = ctypes.create_string_buffer(1024)
    taken = libc.sigaction(fault, None, after) == 0 and libc.sigismember(ctypes.byref(after, mask_at), signal.SIGUSR2)
    if taken != 1:
        libc.sigaction(fault, before, None)


def _dump_at_default() -> None:
    """signal.signal as it is, but where the program sets one of DEATH_DUMPS or SIGTERM back to its default
    action after start (`signal.signal(signal.SIGPIPE, signal.SIG_DFL)`), that signal then dumps as it ends the
    process, chained as at start: it dies by the signal as it would have (the twenty-first held-out set's
    i_sigpipe_log_head, whose place was otherwise unknown)."""
    import faulthandler
    import functools

    original = signal.signal

    @functools.wraps(original)
    def set_handler(signalnum, handler):
        previous = original(signalnum, handler)
        if handler == signal.SIG_DFL and signalnum in (signal.SIGTERM, *DEATH_DUMPS) and _dump_file is not None:
            try:
                # registered at start and since replaced by the program's handler, faulthandler would not install
                # its own again (SIGTERM: a handler of the program's, then SIG_DFL): unregister it first
                faulthandler.unregister(signalnum)
                faulthandler.register(signalnum, file=_dump_file, all_threads=True, chain=True)
            except (OSError, RuntimeError, ValueError):
                pass  # the program's call is done; only the dump is lost
        return previous

    signal.signal = set_handler


class _EverySignalButUsr2:
    """The signal module as multiprocessing's resource sharer sees it, where torch's fatal-signal handler is on.

    The sharer's thread (started in every DataLoader worker that hands a batch's storage over by file
    descriptor) blocks every signal. Torch's handler, as a process dies, asks each thread for its backtrace by
    SIGUSR2 and waits 2 s for one that never answers: a worker's death by SIGSEGV came 2 s late, and its main,
    by then waiting on the data queue, said `exited unexpectedly` where alone it says `killed by signal:
    Segmentation fault` (the thirty-first held-out set's ox_redirect_worker_segv). Every signal but SIGUSR2 is
    blocked there, as alone; SIGUSR2's handler is torch's, put there by crashmatrix."""

    def __init__(self, module):
        self._module = module

    def __getattr__(self, name: str):
        return getattr(self._module, name)

    def valid_signals(self) -> set:
        return self._module.valid_signals() - {self._module.SIGUSR2}


def _sharer_answers_backtraces(sharer) -> None:
    if getattr(sharer, "signal", None) is signal:
        sharer.signal = _EverySignalButUsr2(signal)


def _left_as_it_is(_module, _error: Exception) -> None:
    pass  # the sharer's view unchanged: a death's backtrace may come 2 s late, nothing more


def _under_faulthandler(torch, on: bool) -> None:
    """torch's fatal-signal handler on or off beneath faulthandler's, which comes first on a fault: it dumps the
    program's Python stack, then hands the signal to torch's, which prints the native backtrace and ends the
    process. Over faulthandler, torch's came first: where threads fault together (OpenMP threads writing a mapping
    a full /dev/shm cannot back), the threads it returned from at once faulted again and again until its leader
    put faulthandler's back, and the first fault after faulthandler reset itself to the default action killed the
    process as it dumped: the program's frame printed in 26 of 36 cells where alone 20 of 20 print it. Beneath,
    faulthandler's dump is written before torch's handler starts, and a thread's fault meanwhile waits in torch's."""
    import faulthandler

    dumps = faulthandler.is_enabled()
    if dumps:
        faulthandler.disable()
    _torch_backtraces(torch, on)
    if dumps:
        _faulthandler_on()


def _faulthandler_on() -> None:
    """faulthandler on again where it was: the program's own file where it gave one, else the kept stderr."""
    import faulthandler

    target = _programs_fault_file
    if target is None:
        target = _stderr_fd if _stderr_fd is not None else sys.stderr
    (_enable or faulthandler.enable)(file=target, all_threads=True)


def _note_fault_file() -> None:
    """faulthandler.enable as it is, but the file the program gives it noted (its path, in FAULT_FILE), where it
    is one of its own: a file it opened (the hundred-and-second held-out set's worker and rank that sent their
    dumps to `fault-worker1.log` and `crash-rank1.log`, whose places the run did not find)."""
    global _enable
    import faulthandler
    import functools

    original = _enable = faulthandler.enable

    @functools.wraps(original)
    def enable(*args, **kwargs):
        original(*args, **kwargs)  # the program's call, as alone: its errors are its own
        _noted(args[0] if args else kwargs.get("file", sys.stderr))

    faulthandler.enable = enable


def _noted(file) -> None:
    """The program's faulthandler file kept as the target, and its path written down; never raises."""
    global _programs_fault_file
    try:
        fd = file if isinstance(file, int) else file.fileno()
        if fd == 2 or file is sys.stderr:
            _programs_fault_file = None  # the default: stderr, as the cell's kept one stands for it
            return
        _programs_fault_file = file
        path = os.readlink(f"/proc/self/fd/{fd}")
        cell_dir = os.environ.get("CRASHMATRIX_CELL_DIR")
        if not cell_dir or not os.path.isfile(path):
            return
        # from its size now: what an earlier run appended to the same file is no dump of this one
        with open(os.path.join(dump_dir(cell_dir), f"{FAULT_FILE}{os.getpid()}.txt"), "w") as f:
            f.write(f"{path}\n{os.path.getsize(path)}\n")
    except (OSError, ValueError, AttributeError, TypeError):
        pass


def programs_fault_dumps(cell_dir: str) -> str:
    """What the cell's processes' own faulthandler files (FAULT_FILE) gained during the run, at most 512 KiB each,
    one after another; "" where no process gave faulthandler a file of its own."""
    try:
        names = sorted(n for n in os.listdir(dump_dir(cell_dir)) if n.startswith(FAULT_FILE))
    except OSError:
        return ""
    texts = []
    for name in names:
        try:
            with open(os.path.join(dump_dir(cell_dir), name), encoding="utf-8") as f:
                path, size = f.read().splitlines()[:2]
            with open(path, encoding="utf-8", errors="replace") as f:
                f.seek(int(size))
                texts.append(f.read(512 * 1024))
        except (OSError, ValueError):
            continue
    return "\n".join(texts)


def _after_torch(torch) -> None:
    global _torch_on
    _under_faulthandler(torch, True)
    _torch_on = True
    importhook.after_import("multiprocessing.resource_sharer", _sharer_answers_backtraces, _left_as_it_is)
    from torch.utils.data._utils import signal_handling

    original = signal_handling._set_worker_signal_handlers

    def set_worker_handlers(*args, **kwargs):
        # A DataLoader worker replaces the SIGSEGV/SIGBUS handlers with its own, which re-raises and
        # chains to nothing. faulthandler off, torch's off (each puts back the handlers it replaced), then
        # the worker's; torch's over it and faulthandler on top, as in the main: the Python stack of the
        # thread that died, the native backtrace, then the worker's handler, which prints its
        # `ERROR: Unexpected ...` line and dies by the signal.
        import faulthandler

        dumps = faulthandler.is_enabled()
        if dumps:
            faulthandler.disable()
        _torch_backtraces(torch, False)
        original(*args, **kwargs)
        _torch_backtraces(torch, True)
        if dumps:
            _faulthandler_on()

    signal_handling._set_worker_signal_handlers = set_worker_handlers


def _keep_stderr() -> None:
    """faulthandler's fatal dumps (on where the environment turns it on: PYTHONFAULTHANDLER, as every cell has it)
    kept on the cell's stderr as the process started with it: a program that sends its own stderr to its log file
    (`os.dup2(log.fileno(), 2)`) and prints a summary would otherwise take a crash's Python stack there, where the
    run never reads it (the thirty-first held-out set's ox_redirect_worker_segv). Forked workers share the kept
    descriptor; a spawned one starts from the stderr it is given, the program's log if it was sent there before.
    The descriptor is a high one, closed on exec: a program that closes the descriptors it does not know of
    (`os.closerange(3, ...)`) and opens a file then gets a low one, not this one, where the dump would land."""
    global _stderr_fd
    import faulthandler
    import fcntl
    import resource

    if not faulthandler.is_enabled():
        return
    try:
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        lowest = 1000 if soft == resource.RLIM_INFINITY or soft > 1024 else max(3, soft // 2)
        kept = fcntl.fcntl(2, fcntl.F_DUPFD_CLOEXEC, lowest)
        faulthandler.enable(file=kept, all_threads=True)
    except (OSError, ValueError, RuntimeError):
        return  # the dumps go where the program's stderr goes, as alone
    _stderr_fd = kept


def _as_alone_at_exit() -> None:
    """torch's fatal-signal handler off again once the program's exit handlers have run, as it is alone: a death
    after this, as the interpreter shuts down or a library's destructors run, is then the signal it is alone.
    torch's handler, run as torch's own state was torn down, asked threads for their backtraces by SIGUSR2 whose
    handler was gone: a review's Lightning program that died at exit by SIGSEGV alone died by SIGUSR2 under inject."""
    torch = sys.modules.get("torch")
    if torch is None or not _torch_on:
        return
    try:
        _under_faulthandler(torch, False)
    except Exception:  # noqa: BLE001  an unusual torch: its handler stays, as it was during the run
        pass


def _say_not_enabled(_torch, error: Exception) -> None:
    # an old or unusual torch: the crash is still recorded, just less precisely
    print(f"crashmatrix: torch's fatal-signal handler not enabled: {type(error).__name__}: {error}", file=sys.stderr)


def install() -> None:
    """Called at the start of every cell process (probes' child, inject's sitecustomize, their spawned workers)."""
    global _installed
    if _installed:
        return
    _installed = True
    _keep_stderr()
    try:
        _register()
        os.register_at_fork(after_in_child=_register)
        _dump_at_default()
        _note_fault_file()
    except (OSError, ValueError, RuntimeError) as e:
        print(f"crashmatrix: no stack dumps on timeout: {e}", file=sys.stderr)
    importhook.after_import("torch", _after_torch, _say_not_enabled)
    import atexit

    atexit.register(_as_alone_at_exit)  # registered first: it runs after every exit handler of the program's
