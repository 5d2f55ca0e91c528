"""What identifies a failure across repeats and machines: a cause from a fixed vocabulary, else a masked line.

Pure text in, text out. CAUSES is ordered by priority: when a cell's output holds
several known causes, the first one listed names the failure and gives the
`error` line. The order puts the root cause before its echoes: "Too many open
files" in a worker's feeder thread before the main process's bare EOFError,
the worker's own "Unexpected bus error ... (shm)" before ConnectionResetError.
A cause may sign a failure by its own evidence (`sign`, a template over the
pattern's groups): a CUDA kernel's assertion by its file, kernel and condition, so
two asserts are two failures. Without a known cause, the signature is the error
line with what changes from run to run (pids, addresses, ports, temporary names,
line numbers) masked. A death by signal with no more telling line is signed by
the class word and the program's own innermost frame (signed_by_place), as
Sentry groups a crash by its in-app frames.
"""

from __future__ import annotations

import builtins
import re
import signal as _signal
from collections.abc import Callable
from dataclasses import dataclass

from crashmatrix.outcome import HANG, JOB_LOST, KILLED_BY_SIGNAL, LAUNCH_ERROR, NON_FINITE, Outcome
from crashmatrix.plain_text import plain

try:  # the regular expressions' own parser: what a pattern needs (needed_literal)
    from re import _constants as _sre  # type: ignore[attr-defined]
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # Python before 3.11
    import sre_constants as _sre  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

# torch's fatal-signal handler's heading of each thread's backtrace (c10's handler: under inject crashmatrix turns it
# on): `SIGSEGV(11), PID: 4242, Thread 4243:`, the signal, the process and the thread
TORCH_FATAL_HEAD = re.compile(r"^(?P<sig>SIG[A-Z0-9]+)\(\d+\), PID: (?P<pid>\d+), Thread (?P<tid>\d+):", re.M)
# strsignal() texts, as PyTorch's "is killed by signal: <text>" and faulthandler's "Fatal Python error: <text>"
# print them.
SIGNAL_TEXT = {
    "Segmentation fault": "SIGSEGV",
    "Bus error": "SIGBUS",
    "Killed": "SIGKILL",
    "Aborted": "SIGABRT",
    "Floating point exception": "SIGFPE",
    "Illegal instruction": "SIGILL",
    "Terminated": "SIGTERM",
    "Interrupt": "SIGINT",
    "Hangup": "SIGHUP",
    "Trace/breakpoint trap": "SIGTRAP",
    "Broken pipe": "SIGPIPE",
    "User defined signal 1": "SIGUSR1",
    "User defined signal 2": "SIGUSR2",
    # glibc's words for the rest of the signals whose default action ends a process: an rlimit the program or
    # its scheduler set (RLIMIT_CPU, RLIMIT_FSIZE), a seccomp filter's refusal, a timer nobody handled
    "Quit": "SIGQUIT",
    "Alarm clock": "SIGALRM",
    "Stack fault": "SIGSTKFLT",
    "CPU time limit exceeded": "SIGXCPU",
    "File size limit exceeded": "SIGXFSZ",
    "Virtual timer expired": "SIGVTALRM",
    "Profiling timer expired": "SIGPROF",
    "I/O possible": "SIGIO",
    "Power failure": "SIGPWR",
    "Bad system call": "SIGSYS",
}


def signal_name(number: int) -> str:
    """SIGSEGV for 11; SIG<number> for a signal without a name."""
    try:
        return _signal.Signals(number).name
    except ValueError:
        return f"SIG{number}"


def needed_literals(pattern: re.Pattern) -> tuple[str, ...]:
    """Texts one of which every match of pattern holds (() where none is sure): what a text must contain for the
    pattern to match, looked for before the pattern is (a substring search, many times cheaper than a regular
    expression's). Read from the pattern's parse: the longest run of literals in its mandatory sequence (a
    group's too), else one run for each branch of an alternation in it; never an optional part, nor a case-blind
    one."""
    if pattern.flags & re.IGNORECASE:
        return ()
    return _needed(list(_sre_parse.parse(pattern.pattern, pattern.flags)))


def _needed(items: list) -> tuple[str, ...]:
    runs, run, branches = [], [], []
    for op, av in _inlined(items):
        if op is _sre.LITERAL:
            run.append(chr(av))
            continue
        if op is not _sre.AT:  # an anchor takes no character
            runs.append("".join(run))
            run = []
        if op is _sre.BRANCH:
            branches.append([_needed(list(branch)) for branch in av[1]])
    runs.append("".join(run))
    best = max(runs, key=len)
    if len(best) >= 4 or not branches:
        return (best,) if best else ()
    every = [alternatives for alternatives in branches if all(alternatives)]
    return tuple(text for branch in every[0] for text in branch) if every else ((best,) if best else ())


def _inlined(items: list) -> list:
    """The sequence with its (case-keeping) groups' items in their place."""
    flat = []
    for op, av in items:
        if op is _sre.SUBPATTERN and not (av[1] & re.IGNORECASE):
            flat += _inlined(list(av[3]))
        else:
            flat.append((op, av))
    return flat


_NEEDS: dict = {}


def could_match(pattern: re.Pattern, text: str) -> bool:
    """False where text holds none of what every match of pattern needs (needed_literals): then no search."""
    if pattern not in _NEEDS:
        _NEEDS[pattern] = needed_literals(pattern)
    needs = _NEEDS[pattern]
    return not needs or any(need in text for need in needs)


def search(pattern: re.Pattern, text: str) -> re.Match | None:
    """pattern.search(text), but only where text could hold a match (could_match)."""
    return pattern.search(text) if could_match(pattern, text) else None


def finditer(pattern: re.Pattern, text: str):
    """pattern.finditer(text), but only where text could hold a match (could_match)."""
    return pattern.finditer(text) if could_match(pattern, text) else iter(())


@dataclass(frozen=True)
class Cause:
    name: str  # the signature word
    outcome: Outcome  # what a non-zero exit with this cause is
    patterns: tuple  # compiled, most telling first: the first that matches gives the error line
    # The signature from a match's groups (masked), e.g. "{file}: {kernel}: {condition}"; the name when
    # empty or when the matching pattern lacks a group it names. A group named `told` is the error line.
    sign: str = ""
    code: bool = False  # the groups are code (a kernel's assertion): their numbers are kept
    # signed with the program's frame too, as a death by signal is: it is found where the program's code was,
    # not where the fault was made (glibc's heap check, at the next free or malloc)
    placed: bool = False


def _p(*patterns: str) -> tuple:
    return tuple(re.compile(p, re.M) for p in patterns)


# A DataLoader worker (or a spawned child) that died by a signal, whichever.
WORKER_SIGNAL = "worker_signal"
# A rank that waited at a barrier its peers never called: they had ended (exit 0), which closed the connection
BARRIER_UNMATCHED = "barrier_unmatched"
# A worker that exited with a status, which torch reported: no frame of its own in the text (inject records one).
WORKER_EXITED = "worker_exited"
# A DataLoader whose own `timeout` ran out waiting for a batch.
LOADER_TIMEOUT = "loader_timeout"
# A gloo rank whose peer went away: a consequence, its last Cause
GLOO_PEER_LOST = "gloo_peer_lost"
# A child process the program ran (subprocess.run(check=True), check_call, check_output) died by a signal, which
# Python's CalledProcessError names: the child's death, the parent's raise its consequence.
CHILD_DIED_BY_SIGNAL = re.compile(
    r"CalledProcessError: Command .* died with <Signals\.(?P<sig>SIG[A-Z0-9]+): \d+>", re.M
)
# The main process's "is killed by signal" before the worker's own line: it names the pid and the signal.
_WORKER_SIGNAL = _p(
    r"DataLoader worker \(pid \d+\) is killed by signal: (?P<text>[A-Za-z0-9 /()]+?)(?:\.|\s*$)",
    r"process \d+ terminated with signal (?P<sig>SIG[A-Z0-9]+)",
    r"Signal \d+ \((?P<sig>SIG[A-Z0-9]+)\) received by PID",
    r"exitcode\s*:\s*-(?P<num>\d+)",
    r"ERROR: Unexpected (?P<text>segmentation fault|bus error|floating-point exception) encountered in worker",
) + (CHILD_DIED_BY_SIGNAL,)

# What CUDA prints for a failed device-side assert, one line per failing thread, before any later error:
# `/pytorch/aten/src/ATen/native/cuda/Loss.cu:245: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0],
# thread: [7,0,0] Assertion `t >= 0 && t < n_classes` failed.` Its line number moves with torch's
# version and its block and thread with the data: the file, kernel and condition are the failure.
_KERNEL_ASSERTION = (
    r"^(?:\S*/)?(?P<file>[\w.+-]+\.cuh?):\d+: (?P<kernel>.+?): block: \[[\d, ]+\], thread: \[[\d, ]+\] "
    r"Assertion [`'](?P<condition>.+?)[`'] failed\.?"
)

CAUSES: tuple = (
    # Before cuBLAS and the rest: a device-side assert poisons the context, and the next library call
    # (cublasCreate for a matmul) fails too; the assertion is the failure, the rest its consequences.
    Cause(
        "cuda_device_assert",
        Outcome.CUDA_ERROR,
        _p(_KERNEL_ASSERTION, r"device-side assert triggered"),
        sign="{file}: {kernel}: {condition}",
        code=True,
    ),
    Cause("cuda_oom", Outcome.OOM, _p(r"CUDA out of memory", r"OutOfMemoryError")),
    # Slurm's step daemon: the job's memory cgroup hit its limit and the kernel killed a task (the task itself
    # says only `Killed`, or nothing).
    Cause("slurm_oom_kill", Outcome.OOM, _p(r"slurmstepd: error: Detected \d+ oom[-_]kill events?.*")),
    # torch's own refusal on the host to start CUDA in a forked process (torch/cuda/__init__.py's _lazy_init): an
    # ordinary error of the program's start method, no CUDA runtime error (DESIGN.md keeps the two classes apart)
    Cause("cuda_after_fork", Outcome.FAIL, _p(r"Cannot re-initialize CUDA in forked subprocess")),
    Cause("cuda_illegal_memory_access", Outcome.CUDA_ERROR, _p(r"an illegal memory access was encountered")),
    Cause("cuda_illegal_instruction", Outcome.CUDA_ERROR, _p(r"an illegal instruction was encountered")),
    Cause("cuda_launch_failure", Outcome.CUDA_ERROR, _p(r"unspecified launch failure")),
    # cuDNN's status tells its failures apart: it could not set itself up (INTERNAL_ERROR in cudnnCreate, on a
    # GPU whose memory another process held), a plan it cannot run (NOT_SUPPORTED), a kernel that failed.
    Cause(
        "cudnn_error",
        Outcome.CUDA_ERROR,
        _p(r"(?P<status>CUDNN_STATUS_[A-Z_]+)", r"cuDNN error"),
        sign="cudnn_error {status}",
    ),
    Cause("cublas_error", Outcome.CUDA_ERROR, _p(r"CUBLAS_STATUS_[A-Z_]+", r"cuBLAS error")),
    Cause("nccl_timeout", Outcome.CUDA_ERROR, _p(r"Watchdog caught collective operation timeout")),
    Cause("nccl_error", Outcome.CUDA_ERROR, _p(r"NCCL error")),
    Cause(
        "missing_main_guard",
        Outcome.FAIL,
        _p(
            r"An attempt has been made to start a new process before\s+the\s+current\s+process\s+has\s+finished"
            r"\s+its\s+bootstrapping\s+phase\.?"
        ),
    ),
    Cause(WORKER_SIGNAL, Outcome.WORKER_CRASH, _WORKER_SIGNAL),
    Cause(
        "shm_full",
        Outcome.OOM,
        _p(r"unable to allocate shared memory", r"No space left on device.*(?:/dev/shm|torch_\d)"),
    ),
    Cause(
        "fd_exhaustion",
        Outcome.FAIL,
        _p(
            r"RuntimeError: Too many open files\. Communication with the workers",
            r"received 0 items of ancdata",
            r"Too many open files",
        ),
    ),
    Cause(
        "memory_error",
        Outcome.OOM,
        _p(
            r"^(?:\w+\.)*\w*MemoryError\b",  # numpy's _ArrayMemoryError is one too
            r"std::bad_alloc",
            r"DefaultCPUAllocator: can't allocate memory",
            r"Cannot allocate memory",
        ),
        # signed by what was refused, in its own words: no class of the contract's names it, and a cap on the
        # address space, numpy's array and the allocator's request are told apart by them
        sign="memory_error: {whole_line}",
    ),
    Cause("pin_memory_thread", Outcome.WORKER_CRASH, _p(r"Pin memory thread exited unexpectedly")),
    # DataLoader(timeout=N): a worker slower than N seconds; one failure whatever N the program chose
    Cause(LOADER_TIMEOUT, Outcome.FAIL, _p(r"DataLoader timed out after \d+ seconds")),
    Cause(
        WORKER_EXITED,
        Outcome.WORKER_CRASH,
        _p(
            r"DataLoader worker \(pid\(?s?\)? [\d, ]+\) exited unexpectedly",
            r"process \d+ terminated with exit code \d+",
        ),
    ),
    # Last: a consequence. A gloo rank whose peer went away (ended early, or died) fails in its next
    # collective with one of two messages, whichever side of the socket noticed first; both name the peer's
    # port, which changes every run. Seen with torch 2.13 on one deterministic failure, repeated.
    Cause(
        GLOO_PEER_LOST,
        Outcome.FAIL,
        _p(r"Connection closed by peer \[[^\]]*\]:\d+", r"Read error \[[^\]]*\]:\d+: Connection reset by peer"),
    ),
)
# assert.h's last words in native code (glibc: `python: /tmp/b/hist.c:4: build_hist: Assertion `n_bins > 0'
# failed.`; musl: `Assertion failed: n_bins > 0 (hist.c: build_hist: 4)`). As a kernel's assertion, the
# file, function and condition are the failure: two asserts reached from one line of Python are two.
NATIVE_ASSERT = Cause(
    "native_assert",
    Outcome.CRASH,
    _p(
        r"^\S+: (?:\S*/)?(?P<file>[\w.+-]+):(?P<line>\d+): (?P<function>.+?): Assertion [`'](?P<condition>.+?)[`'] "
        r"failed\.?$",
        r"^Assertion failed: (?P<condition>.+) \((?:\S*/)?(?P<file>[\w.+-]+): (?P<function>[^:()]+): (?P<line>\d+)\)$",
    ),
    sign="{file}: {function}: {condition}",
    code=True,
)
# glibc's heap checks as they abort: the allocator's function and what it found. glibc 2.26 and later print it
# alone; older ones (CentOS 7, many clusters) as ``*** Error in `python': free(): invalid next size (normal):
# 0x0000000001c3e010 ***``. `said` is what it found, either way.
GLIBC_HEAP_CHECK = (
    r"(?:\*\*\* Error in `[^`']*'?: )?(?P<said>(?:free|malloc|realloc|calloc|munmap_chunk|malloc_consolidate|_int_free"
    r"|_int_malloc|tcache_thread_shutdown)\(\): .+?|double free or corruption.*?|corrupted (?:size|double-linked "
    r"list).*?)(?:: 0x[0-9a-f]+ \*\*\*)?"
)
# What tells a death by SIGABRT apart (classify looks for these only then): C++'s last words on an
# uncaught exception, `terminate called after throwing an instance of 'gloo::EnforceNotMet'` and on the
# next line `  what():  [enforce fail at .../pair.cc:456] ... Is there a distributed collective mismatch
# in your code?`. The what() line is the telling line; the type and message, masked, the signature.
ABORT_CAUSES: tuple = (
    Cause(
        "cpp_terminate",
        Outcome.CRASH,
        _p(
            r"terminate called after throwing an instance of '(?P<type>[^'\n]+)'\n\s*(?P<told>what\(\):\s*(?P<what>.*))$"
        ),
        sign="{type}: {what}",
    ),
    NATIVE_ASSERT,
    # glibc's words as its heap checks abort the process (a write past a buffer, a double free): the allocator's
    # function and what it found (`free(): invalid next size (normal)`, `double free or corruption (out)`,
    # `corrupted size vs. prev_size`). The corruption happened earlier, at a write that ran past its buffer. Signed
    # by its class and place alone: which check finds one broken heap varies from run to run (the eighty-second
    # set's free() of a view's pointer: `double free or corruption (out)`, `free(): invalid size`, `munmap_chunk():
    # invalid pointer` over 3 repeats); the words stay the error. Named for what is known, glibc's check that aborted:
    # `heap_corruption` (grouping 5 to 12) said more than `realloc(): invalid pointer` tells, a pointer malloc never
    # returned, not a broken heap (the ninety-fifth set's realloc of a numpy view, the eighty-seventh's free)
    Cause("glibc_heap_check", Outcome.CRASH, _p(rf"^{GLIBC_HEAP_CHECK}$"), placed=True),
    # glibc's stack protector and fortified string functions as they abort: `*** stack smashing detected ***:
    # terminated` as a function whose stack buffer was overrun returns, `*** buffer overflow detected ***` as a
    # strcpy or memcpy is about to. The write was the program's native code's, or a library's it called.
    Cause(
        "overflow_detected",
        Outcome.CRASH,
        _p(r"^\*\*\* (?P<said>stack smashing|buffer overflow) detected \*\*\*(?::.*)?$"),
        sign="{said} detected",
        placed=True,
    ),
)


def native_assertion_place(text: str) -> str:
    """`hist.c:4 in build_hist`: where native code's failed assert.h assertion was, from its last words in text
    (native_assert's lines); "" where none."""
    for pattern in NATIVE_ASSERT.patterns:
        found = last_match(pattern, text) if could_match(pattern, text) else None
        if found:
            return f"{found.group('file')}:{found.group('line')} in {found.group('function')}"
    return ""


# Not causes of their own: worker_lost, and the outcome words' signatures (crashmatrix.outcome defines those,
# RESTATES_OUTCOME), named here for the vocabulary's sake.
# What some libraries' failures say, read by verdict/classify.py (their telling line) and verdict/remedies.py
# (their fix): Hydra refusing an override, and Hydra's instantiate failing, print a headline without a traceback;
# torch.load's weights-only refusal says what it refused after its headline.
HYDRA_OVERRIDE_REFUSED = (
    r"Could not override '[^']*'\.|Error (?:parsing|merging) override.*"
    # `+key=v` where the key is there already, `~key` where it is not (recorded: tests/data/hydra-overrides)
    r"|Could not append to config\. An item is already at '[^']*'\.|Could not delete from config\. .*"
)
# instantiate(): the app's own object raised while Hydra built it, or its `_target_` does not resolve
HYDRA_INSTANTIATE_FAILED = r"Error (?:in call to|locating) target '[^']*':?.*|Error instantiating '[^']*'.*"
WEIGHTS_ONLY_HEAD = "Weights only load failed."
UNPICKLER_SAYS = "WeightsUnpickler error:"

# faulthandler's watchdog (`faulthandler.dump_traceback_later(timeout, exit=True)`): `Timeout (0:00:03)!`, then
# every thread's stack listed as `Thread 0x... (most recent call first):`; with exit=True the process then ends
# with status 1, nothing more of its own printed.
WATCHDOG_DUMP = re.compile(
    r"^Timeout \(\d+:\d\d:\d\d(?:\.\d+)?\)!\n(?:Thread 0x[0-9a-f]+ .*\n(?:[ \t]+(?:File .*|\.\.\.)(?:\n|$))*\n?)+",
    re.M,
)
WATCHDOG_ENDED = "faulthandler_timeout"

# Another process's or thread's header printed into a traceback's lines: two children that fail at once interleave
# their output (`Process ForkProcess-1:`, `Process ForkProcess-2:`, two `Traceback ...` heads, then their frames):
# no exception line of that traceback's (parsed.py's and ranks.py's readers pass over it). Two threads' headers can
# interleave within a line too (`Exception in thread Exception in thread actor-0actor-1:`, then a lone `:`): a line
# of no word is no exception line either.
INTERLEAVED_HEAD = re.compile(
    r"(?:Process [^\n:]+|Exception in thread .+|Traceback \(most recent call last\)):[ \t]*|\W*"
)

WORKER_LOST = "worker_lost"  # ConnectionResetError while receiving from a worker: it vanished, no reason given
VOCABULARY = tuple(c.name for c in CAUSES) + (WORKER_LOST, KILLED_BY_SIGNAL, HANG, NON_FINITE, LAUNCH_ERROR, JOB_LOST)

# A worker gone mid-batch: the main's connection to it fails, or, for a batch whose storage it shares by file
# descriptor, its resource sharer's socket is gone (FileNotFoundError in rebuild_storage_fd: recorded with a
# worker that ended itself by sys.exit(2), spawn, torch 2.13; tests/apps/worker_exit).
_LOST_WORKER = re.compile(r"^(?:\w+\.)*(?:Connection(?:Reset|Refused)Error|FileNotFoundError)\b.*$", re.M)
_LOST_WORKER_FRAMES = re.compile(r"rebuild_storage_fd|_pin_memory_loop|_try_get_data")
# ... and it was a DataLoader's: a torch.multiprocessing queue of the program's own whose producer exited before its
# tensor was read fails in rebuild_storage_fd alike (ConnectionRefusedError), with no worker lost.
_LOADER_FRAMES = re.compile(r"_pin_memory_loop|_try_get_data|torch/utils/data/dataloader\.py|DataLoader worker")
_PIN_MEMORY_FRAME = re.compile(r"in _pin_memory_loop")


def lost_a_worker(text: str) -> bool:
    """Whether text is a DataLoader's ConnectionResetError from a worker that vanished (its own loader's, not
    a peer rank's connection)."""
    return all(search(p, text) is not None for p in (_LOST_WORKER, _LOST_WORKER_FRAMES, _LOADER_FRAMES))


@dataclass(frozen=True)
class Found:
    cause: Cause
    line: str  # the whole output line the pattern matched
    match: re.Match

    @property
    def signature(self) -> str:
        """The cause's sign filled from the match, masked; else the cause's name."""
        if not self.cause.sign:
            return self.cause.name
        try:
            fields = {k: v.strip() for k, v in self.match.groupdict("").items()}
            filled = self.cause.sign.format(**{"whole_line": self.line, **fields})
            return mask(filled, numbers=not self.cause.code)
        except KeyError:  # the pattern that matched does not carry the sign's groups
            return self.cause.name


# torch's (glog-style) logging prefix: `W1122 16:54:15.636000 6011 torch/autograd/profiler.py:858] `.
# Its time and pid differ in every run; the message after it is the telling part.
_LOG_PREFIX = re.compile(r"^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ \S+:\d+\] ")


def line_of(text: str, m: re.Match) -> str:
    """The whole line(s) the match touches (its `told` group's, where it has one), as one line, less a
    logging prefix."""
    group = "told" if "told" in m.re.groupindex else 0
    start = text.rfind("\n", 0, m.start(group)) + 1
    glued = _GLUED_EXCEPTION.search(text, start, m.start(group))
    if glued and _glued(glued["token"]):  # another process's unfinished line before the exception's own
        start = glued.start("name")
    end = text.find("\n", m.end(group))
    line = " ".join(text[start : end if end != -1 else len(text)].split())
    return _LOG_PREFIX.sub("", line)


# A builtin exception's name glued to what another process had half-written on that line (`, torch._C._special`
# then the main's `RuntimeError: DataLoader worker (pid N) is killed by signal`): no name of a message's own ends so
_BUILTIN_EXCEPTIONS = sorted(
    (
        n
        for n in dir(builtins)
        if isinstance(getattr(builtins, n), type) and issubclass(getattr(builtins, n), Exception)
    ),
    key=len,
    reverse=True,
)
_GLUED_EXCEPTION = re.compile(rf"(?P<token>[\w.]*)(?P<name>{'|'.join(_BUILTIN_EXCEPTIONS)}): $")


def _glued(token: str) -> bool:
    """Whether what stands before a builtin exception's name is no part of a class's name: a class is CapWords
    (`torch.OutOfMemoryError`, numpy's `_ArrayMemoryError`), another process's half-written word is not
    (`torch._C._special` + `RuntimeError`)."""
    last = token.rsplit(".", 1)[-1].lstrip("_")
    return bool(last) and last[0].islower()


def last_match(pattern: re.Pattern, text: str):
    """The last match of pattern in text, or None."""
    if not could_match(pattern, text):
        return None
    matches = list(pattern.finditer(text))
    return matches[-1] if matches else None


def find_cause(text: str, *, among=CAUSES) -> Found | None:
    """The highest-priority known cause in the output, with its line (the last occurrence of its best pattern)."""
    for cause in among:
        for pattern in cause.patterns:
            if not could_match(pattern, text):
                continue
            m = last_match(pattern, text)
            if m is not None:
                return Found(cause, line_of(text, m), m)
    lost = last_match(_LOST_WORKER, text) if among is CAUSES else None
    if lost is not None and lost_a_worker(text):
        name = "pin_memory_thread" if search(_PIN_MEMORY_FRAME, text) else WORKER_LOST
        return Found(Cause(name, Outcome.WORKER_CRASH, ()), line_of(text, lost), lost)
    return None


_IPV4 = r"(?:\d{1,3}\.){3}\d{1,3}"


def _least_key(listed: re.Match[str]) -> str:
    """`Missing key(s) in state_dict: "fc1.bias", …`: a list of keys by the least of them."""
    keys = re.findall(r'"[^"]*"', listed.group(2))
    return f"{listed.group(1)}{min(keys)}, …"


def _machine_free(path: re.Match[str]) -> str:
    """An absolute path without the machine's part: from an installed package's folder on (a broken install is
    told by it: `…/site-packages/x/v.txt`), else the file's name (`…/model.py`)."""
    text = path.group(0)
    for packages in ("/site-packages/", "/dist-packages/"):
        if packages in text:
            return "…" + text[text.rindex(packages) :]
    return "…/" + text.rsplit("/", 1)[-1]


def _mixed(word: str) -> bool:
    """Whether letters and digits change places three times or more in word (`z5ubo932`: z|5|ubo|932)."""
    return sum(a.isdigit() != b.isdigit() for a, b in zip(word, word[1:])) >= 3


_MASKS: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    # Where C++ threw, `[enforce fail at /__w/pytorch/pytorch/third_party/gloo/.../pair.cc:456] ` or
    # `[/pytorch/.../pair.cc:553] `: the path and line differ from build to build; the message after it tells.
    (re.compile(r"\[(?:enforce fail at )?[^\s\]]*\.(?:cc|cpp|cxx|cu|cuh|c|h|hpp):\d+\]\s*"), ""),
    (re.compile(r"(?:[^\s:,'\"()]*/)?([\w.+-]+\.(?:cc|cpp|cxx|cu|cuh|c|h|hpp)):\d+\b"), r"\1:N"),
    # Host and port: gloo's `[127.0.0.1]:9615`, `[::1]:1234`, `127.0.0.1:29500`, `localhost:29500`,
    # `tcp://host:port`; a port the OS picks differs every run, an address every machine.
    (re.compile(r"\b(tcp|tcp6|env|file)://[^\s'\"<>,;)\]]+"), r"\1://…addr…"),
    (re.compile(r"\[[0-9A-Fa-f:.]*[:.][0-9A-Fa-f:.]*\]:\d+"), "…addr…"),
    (re.compile(rf"(?<![\w.]){_IPV4}(?::\d+)?(?![\w.])|\blocalhost:\d+\b"), "…addr…"),
    (re.compile(r"\b([Pp]ort)(:?\s*)\d+\b"), r"\1\2N"),
    (re.compile(r"\b0x[0-9a-fA-F]{4,}\b"), "0x…"),
    # A run's cell folder (`RUN/cells/9417c88129-r2`, the cell's TMPDIR below it): its run and repeat differ.
    (re.compile(r"[^\s'\"<>()]*/cells/[0-9a-f]{6,}-r\d+/tmp/[^\s'\"<>:,)]+"), "…cell…/tmp/…"),
    (re.compile(r"[^\s'\"<>()]*/cells/[0-9a-f]{6,}-r\d+\b"), "…cell…"),
    # a run folder's stamp (`hunt-overlapping-20261125-140642`)
    (re.compile(r"\b\d{8}-\d{6}\b"), "…time…"),
    (re.compile(r"(/tmp|/var/tmp|/dev/shm|/run/user/\d+)/[^\s'\"<>:,)]+"), r"\1/…"),
    # Any other absolute path to a file (a checkout, a home, a data mount): the machine's, not the failure's;
    # TorchScript names the program's file by it (`File "/home/ana/proj/model.py", line 11`).
    (re.compile(r"(?<![\w.…/])/(?:[^\s/'\"<>:,()\[\]]+/)+[\w+-]+(?:\.[\w+-]+)*\.[A-Za-z]\w*\b"), _machine_free),
    # and a program's path with no extension, three folders deep or more (`/work/proj/.venv/bin/python` in a
    # CalledProcessError's command); a device's or the kernel's (/dev, /proc, /sys) is the failure's own
    (re.compile(r"(?<![\w.…/])/(?!(?:dev|proc|sys)/)(?:[^\s/'\"<>:,()\[\]]+/){2,}[\w+-]+\b(?![/.])"), _machine_free),
    # tempfile's names elsewhere (`./tmpk2j3l4m_`), multiprocessing's shared memory (`/psm_1a2b3c4d`)
    (re.compile(r"\btmp[a-z0-9_]{8}\b"), "tmp…"),
    # ... and with the program's own prefix (`mkdtemp(prefix="envkit-w12486-")`, `mkstemp(prefix="ckpt_",
    # suffix=".pt")`): 8 such characters that end an absolute path's last name (`…/` above) after a prefix ending in
    # `-`, `_` or `.`, before any suffix but a source file's; no quoted word or relative name (`'optim.momentum'`,
    # Hydra's `'scenario/p_hydra_type_mismatch'`). A word of 8 letters there is masked too (`train_features`): by
    # the same place, as Sentry groups, two such names are one failure; a random name split them 8 times in 100.
    (
        re.compile(r"(?:(?<=…/)|(?<=['\"]/))([^\s'\"/]*[-_.])[a-z0-9_]{8}(?!\.py\b)(?=(?:\.\w+){0,2}(?:['\"\s]|$))"),
        r"\1…",
    ),
    (re.compile(r"\b(psm|wnsm)_[0-9a-f]{8}\b"), r"\1_…"),
    (re.compile(r"\btorch_\d+_\d+(?:_\d+)?\b"), "torch_…"),
    (
        re.compile(
            r"\b(pid|PID|pids|pid\(s\)|process|Process|worker|rank|Rank|thread|Thread|tid|TID)\s*(\(?)[\d, ]*\d\b"
        ),
        r"\1 \2N",
    ),
    (re.compile(r"\bline \d+"), "line N"),
    # load_state_dict's lists of keys (`Missing key(s) in state_dict: "fc1.weight", "fc1.bias".`), by their least: a
    # model's hundred names would fill the signature before the unexpected ones, whose least tells a DDP checkpoint
    # (`"module.fc1.bias"`) from a quantized (`"fc1.scale"`) or a pruned one (`"fc1.weight_mask"`); not their first,
    # whose order a checkpoint built from a set changes from run to run
    (re.compile(r"\b((?:Missing|Unexpected) key\(s\) in state_dict: )(\"[^\"]*\"(?:, \"[^\"]*\")+)"), _least_key),
    # ... and its size mismatches by the parameter's name: the shapes are masked anyway, and their words, one
    # sentence for each parameter, would fill it
    (
        re.compile(
            r"\b(size mismatch for [\w.]+): copying a param with shape torch\.Size\(\[[^\]]*\]\) from checkpoint, "
            r"the shape in current model is torch\.Size\(\[[^\]]*\]\)"
        ),
        r"\1",
    ),
    (re.compile(r"(\.py):\d+"), r"\1:N"),
    (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"), "…uuid…"),
    # run and rendezvous ids, hashes: long hexadecimal words with a letter and a digit
    (re.compile(r"(?<![0-9A-Za-z])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{12,}(?![0-9A-Za-z])"), "…id…"),
    # a random id in base 36 (a wandb run's `xt76hz1r`): letters and digits that change places three times or more,
    # as no name does (`resnet50`, `float32`, `conv2d` change once)
    (re.compile(r"\b[a-z0-9]{6,16}\b"), lambda word: "…id…" if _mixed(word.group(0)) else word.group(0)),
    # Variable tails: the same failure at another batch size, image size, step or moment would be
    # another signature. Shapes and number lists, tensor values, measured decimals, timestamps.
    (re.compile(r"\btensor\((?:[^()]|\([^()]*\))*\)"), "tensor(…)"),
    (re.compile(r"\[[-+\d.,\s e]*\d[-+\d.,\s e]*\]"), "[…]"),
    (re.compile(r"\((?:\s*-?\d+\s*,)+\s*(?:-?\d+\s*)?\)"), "(…)"),
    (re.compile(r"\b\d{4}-\d\d-\d\d[ T_]\d\d[:-]\d\d[:-]\d\d(?:[.,]\d+)?"), "…time…"),
    # glog's and c10's prefix (`[F1130 13:43:33.727411735 ProcessGroupGloo.cpp:1537]`): its severity letter, then
    # the month and day, which another day's run of the same failure would change
    (re.compile(r"\b([IWEF])\d{4}(?= \d\d:\d\d:\d\d)"), r"\1"),
    (re.compile(r"\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b"), "…time…"),
    (re.compile(r"(?<![\w.])-?\d+\.\d+(?:e[-+]?\d+)?(?![\w.])"), "N.N"),
]
# Grouping 2 (outcome.GROUPING_VERSION): any number a message carries (an index, a key, a size, a count) is the
# same failure whatever its value (`index 1462 is out of bounds`, `KeyError: 3934`), also inside a quoted id
# (`'img_3934.jpg'`) and in a size pair (`4x5`). Not a name's digits (`conv2d`, `layers.0`), nor a program's own
# exit status; nor a kernel's assertion, which is code (Cause.code_groups).
_NUMBER_MASKS: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    (re.compile(r"\b\d+x\d+\b"), "NxN"),
    (re.compile(r"(?<![\w.])(?<!exit status )(?<!exit code )-?\d+(?![\w])"), "N"),
    # in a quoted id, a number set apart from the name before it (`img_3934`, `sample-12`); not an op's or a
    # layer's own name (`SqrtBackward0`, `fc1`)
    (re.compile(r"'[^'\s]*'|\"[^\"\s]*\""), lambda quoted: _quoted_numbers(quoted.group(0))),
]


def _quoted_numbers(quoted: str) -> str:
    """A quoted id's numbers masked: one set apart from the name before it, and four digits or more after a single
    letter (a worker's pid in `envkit-w12486-`); not a name's digits (`fc1`, `resnet1001`, `gfx1030`, `cp1252`),
    nor a character's escape (`'\\u2192'`)."""
    quoted = re.sub(r"(?<![A-Za-z\d\\])([A-Za-z])\d{4,}", r"\1N", quoted)
    return re.sub(r"(?<![A-Za-z\d])\d+", "N", quoted)


MAX_LENGTH = 200


# The program's own frame as `where` gives it: `app/io.py:42 in parse_header` (forensics.own_fault_frame).
_OWN_PLACE = re.compile(r"^(?P<path>\S+?):\d+ in (?P<func>\S+)$")
# A native frame in `where` (forensics' backtrace frames): `cx_ops_native.so (gather_rows(at::Tensor, at::Tensor)
# +0x7ed)`, its library and function without arguments or offset (a build moves the offset, never the name); an
# unnamed one (`libc.so.6 (+0x156219)`) names nothing that stays.
# The C runtime's libraries: a function of theirs (kill, raise, memcpy) is where any code ends, no place of its own.
C_RUNTIME = re.compile(r"^(?:\S*/)?(?:libc|libpthread|libdl|librt|libm|libgcc_s|ld-linux[\w.-]*)\.so\b")
_NATIVE_NAMED = re.compile(r"^(?P<lib>[^\s;()]+) \((?P<func>[A-Za-z_~][^()+\s]*)(?:\(.*\))?[^()+]*\+0x[0-9a-fA-F]+\)$")
# The class words that name a failure by its kind alone (a death by signal, memory run out), which the
# program's own frame then tells apart: two allocations that fail in two places are two failures.
SIGNED_BY_PLACE = frozenset(
    {KILLED_BY_SIGNAL, WORKER_SIGNAL, BARRIER_UNMATCHED, "memory_error", "cuda_oom", "fd_exhaustion"}
)
# `where`'s last part for a death by signal that came after the process's Python exit had run (its atexit
# handlers; verdict/exit_record.py's died_at_exit): in the interpreter's shutdown or a library's native
# destructors. It signs the failure too: a death at exit and one mid-run are two failures.
AT_EXIT = "at exit"


def placed_at_exit(where: str) -> bool:
    """Whether `where` tells a death at exit: its last part is AT_EXIT."""
    return where.rpartition("; ")[2] == AT_EXIT


# CUDA's words for a kernel's fault that name no kernel: two illegal accesses in two kernels are told apart by
# the line that launched each, which only a synchronous rerun finds (the first run's place is wherever the
# host next waited: a later op, the same for every kernel before it).
SIGNED_BY_LAUNCH = frozenset({"cuda_illegal_memory_access", "cuda_illegal_instruction", "cuda_launch_failure"})


def _last_place(where: str) -> str:
    """`where`'s last place, the program's frame: of a torch.compile error placed at the line that broke the trace
    (`app/model.py:19 in route, traced from app/train.py:28 in main`), that line."""
    return where.rsplit("; ", 1)[-1].split(", traced from ", 1)[0].strip()


def with_place(signature: str, where: str, launched: bool = False, by_message: bool = False) -> str:
    """`killed_by_signal in app/io.py:parse_header`: a class word of a death by signal with the program's
    own innermost frame, the last part of `where`, without its line (stable across edits and machines;
    a native library's offset never, it differs by build). launched: `where` is a synchronous rerun's
    launching line, which signs SIGNED_BY_LAUNCH's words. by_message: the signature is an exception's line
    of no known cause, which the place signs too (`AssertionError in app/io.py:check`: two bare asserts in two
    functions are two failures, as Sentry groups by in-app frames). A death at exit (`where` ends in AT_EXIT):
    ` at exit` after whatever the rest signs (`killed_by_signal at exit`). Any other signature, or no such
    frame: as is."""
    if placed_at_exit(where):
        signed = with_place(signature, where.rpartition("; ")[0], launched, by_message)
        return signed if signed.endswith(f" {AT_EXIT}") else f"{signed} {AT_EXIT}"
    # a class word, or a class signed by its words (`memory_error: MemoryError: ...`)
    word = signature.partition(": ")[0]
    if not by_message and word not in (SIGNED_BY_LAUNCH if launched else SIGNED_BY_PLACE):
        return signature
    own = _OWN_PLACE.match(_last_place(where))
    # a death by signal in a named native function: two faults in two functions reached from one line are two
    native = _NATIVE_NAMED.match(where.split("; ", 1)[0].strip()) if word in SIGNED_BY_PLACE else None
    if native and C_RUNTIME.match(native["lib"]):  # libc's kill() of a program's own signal, its memcpy: no place
        native = None
    places = [f"{native['lib']}:{native['func']}" if native else "", f"{own['path']}:{own['func']}" if own else ""]
    named = "; ".join(p for p in places if p)
    return f"{signature} in {named}" if named else signature


_LEADING_WORD = re.compile(r"[\w.]+")
# a class word an older version gave that a later one gives as another: joined as the later one
_RENAMED_CLASSES = {"worker_bus_error_shm": "worker_signal", "heap_corruption": "glibc_heap_check"}


def current_class(signature: str) -> str:
    """The signature with a class an earlier grouping version named otherwise (`heap_corruption in ...`) as this
    version names it (`glibc_heap_check in ...`)."""
    word = _LEADING_WORD.match(signature)
    if word is None or word.group(0) not in _RENAMED_CLASSES:
        return signature
    return _RENAMED_CLASSES[word.group(0)] + signature[word.end() :]


def signature_class(signature: str, where: str) -> str:
    """What every grouping version says alike of one failure: its class (a known cause's word, or the exception's
    type, the signature's first word) and the program's frame (`where`'s last place, without its line):
    `KeyError in app/data.py:lookup`, from version 1's `KeyError: 3934` and version 2's `KeyError: N in
    app/data.py:lookup` alike."""
    word = _LEADING_WORD.match(signature)
    own = _OWN_PLACE.match(_last_place(where))
    place = f" in {own['path']}:{own['func']}" if own else ""
    said = word.group(0) if word else signature
    return _RENAMED_CLASSES.get(said, said) + place


# A hang's place in `where` (stacks.summarize, straggler.summarize): `main app/busy.py:3 in loop`,
# `worker of rank 1 app/data.py:8 in read`, `rank 0 in barrier at app/train.py:17 in run`; a part that ends in no
# frame of the program's (`main DataLoader _get_data (dataloader.py:1133)`) is kept as words.
_HANG_PLACE = re.compile(r"(?:^|\s)(?P<path>[^\s()]+?):\d+ in (?P<func>\S+)$")
# what comes before a rank's frame where it waits in a collective (straggler.summarize): `ranks 0, 1 in all_reduce at`;
# a lone process's main in torch.distributed (stacks.main_place): `main in init_process_group at`
_IN_COLLECTIVE = re.compile(r"^(?:ranks? [\d, ]+|main) in (?P<collective>.+) at$")
# ... and a usual wait's (stacks.main_place): `main DataLoader _get_data (dataloader.py:1464) at`
_IN_USUAL_WAIT = re.compile(r"^(?:main )?(?P<collective>[^()]+?) \([^()]+:\d+\) at$")


def hang_signature(where: str) -> str:
    """`hang in app/busy.py:loop`: a hang signed by its places as a death by signal is by its frame
    (with_place): each part of `where` by its frame's path and function, without the line (a busy loop is
    caught on any line of its body) or the process's role and pid, a rank in a collective by that collective
    too (`barrier at app/train.py:run`: which collective each waits in is the mismatch); a part without one by
    its words, masked. Each place once, in `where`'s order: two workers stuck alike in one repeat and one in
    the next are one hang. Two hangs in two places are two."""
    parts: list[str] = []
    for part in where.split("; "):
        part = part.strip()
        found = _HANG_PLACE.search(part)
        signed = f"{found['path']}:{found['func']}" if found else part
        before = part[: found.start()].strip() if found else ""
        waits = _IN_COLLECTIVE.match(before) or _IN_USUAL_WAIT.match(before) if found else None
        if waits:
            signed = f"{waits['collective']} at {signed}"
        if signed and signed not in parts:
            parts.append(signed)
    return mask(f"{HANG} in " + "; ".join(parts)) if parts else HANG


def mask(line: str, numbers: bool = True) -> str:
    """The line with what differs between two runs of the same failure replaced by a placeholder. numbers=False:
    the numbers it carries are kept (a kernel's assertion is code: `t >= 0`)."""
    text = " ".join(plain(str(line)).split())
    for pattern, replacement in _MASKS + _NUMBER_MASKS if numbers else _MASKS:
        text = pattern.sub(replacement, text)
    return text[:MAX_LENGTH]
