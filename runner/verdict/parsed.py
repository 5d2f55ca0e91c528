"""A cell's output read once into evidence: the rules (classify, signature, the places) read facts from it.

`read_output(text)` gives an `Output`: every Python traceback (its exception's type and message, its frames
as (path, lineno, function) with their source line, whether it is chained to the one before it, whether Python
ignored it, and its origin: the main thread, a named thread, a DataLoader worker, a rank, a launcher's report),
faulthandler's dumps (the fatal error and each thread's stack), the launcher's reports (torchrun's failure
table, torch.multiprocessing's), the DataLoader's own reports, CUDA's, cuDNN's and NCCL's lines, Hydra's error,
and the known cause the vocabulary names (verdict/signature.py: CAUSES, a table of data). What no parser
knows stays in `text`.

Each fact is read when first asked for and kept: classify, the signature, `where` and `crashmatrix diagnose`
ask one Output (read_output keeps the last few, keyed by the text), so a cell's text is scanned for a cause,
its tracebacks, its dumps once, however many rules read them. Pure: text in, facts out.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import itertools
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from crashmatrix.verdict import signature as sig_
from crashmatrix.verdict.log_prefix import unprefixed
from crashmatrix.verdict.loguru_traceback import unmarked
from crashmatrix.verdict.rich_traceback import unrich
from crashmatrix.verdict.stacks import Frame, Thread, parse_faulthandler

TRACEBACK_HEAD = "Traceback (most recent call last):"
# exception_place's head: `Traceback (most recent call last):` alone on its line, a worker's `Original
# Traceback (...)` too
_LINE_HEAD = re.compile(r"(?:Original )?Traceback \(most recent call last\):[ \t]*")
FRAME = re.compile(r'^[ \t]+File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<func>.+?)[ \t]*$')
_CHAINED = ("During handling of the above exception", "The above exception was the direct cause")
# threading.excepthook's header before a thread's uncaught exception's traceback (`Exception in thread
# Thread-1 (prefetch):`); _thread's `Exception ignored in thread started by: <function f at 0x...>`.
# asyncio's word for a task that died and was never awaited (its loop's exception handler, as the task is
# collected): `Task exception was never retrieved`, then `future: <Task finished name='Task-2' coro=<upload()
# done, defined at ...> exception=...>`. The program went on without what the task was to do, as after a thread.
# multiprocessing's `Process grid-exporter:` before the traceback of a child process's uncaught exception
# (Process._bootstrap prints it): the child died, the main goes on, as after a thread.
CTYPES_CALLBACK = "Exception ignored on calling ctypes callback function:"
THREAD_FAILED = re.compile(
    r"^(?:Exception in thread (?P<name>.+?)|Exception ignored in thread started by: (?P<started_by>.+?)"
    r"|Process (?P<process>[^\n:]+)):[ \t]*\n"
    r"(?=Traceback \(most recent call last\):)"
    r"|^Task exception was never retrieved\nfuture: <Task finished name='(?P<task>[^']*)' coro=<(?P<coro>[\w.]+)\(\)"
    r".*\n(?=Traceback \(most recent call last\):)"
    # a ctypes callback that raised, called from C (a C thread's, or a call's): ctypes prints it and returns to C,
    # which goes on with what the callback never set (the eighty-second set's on_record; the main failed later)
    rf"|^{CTYPES_CALLBACK} <function (?P<callback>[^\s>]+) at 0x[0-9a-f]+>[ \t]*\n(?=Traceback \(most recent call last\):)",
    re.M,
)


def thread_named(died: re.Match) -> str:
    """`thread Thread-1 (prefetch)`, `asyncio task Task-2 (upload)`, `process grid-exporter`: what THREAD_FAILED
    matched, as told."""
    if died["task"] is not None:
        return f"asyncio task {died['task']} ({died['coro']})"
    if died["callback"] is not None:
        return f"ctypes callback {died['callback']}"
    if died["process"] is not None:
        return f"process {died['process'].strip()}"
    return f"thread {(died['name'] or died['started_by']).strip()}"


_SPAWN_RAISED = re.compile(r"^-- Process (\d+) terminated with the following error:", re.M)
# A process pool's worker's traceback, which the main re-raises with it as the cause (multiprocessing.Pool's
# `multiprocessing.pool.RemoteTraceback:`, ProcessPoolExecutor's `concurrent.futures.process._RemoteTraceback:`),
# its text between triple quotes on the lines after.
_REMOTE_TRACEBACK = re.compile(r"[\w.]*RemoteTraceback:")
_EXIT_CLEANUP = frozenset({"_run_finalizers", "_exit_function"})
_MP_UTIL = "multiprocessing/util.py"
# A multiprocessing Manager's server's traceback, which the main's RemoteError quotes between lines of dashes:
# the server's side of the program's call (a proxy's method), not a place of the program's
_MANAGER_SAYS = "RemoteError:"
_DASHES = re.compile(r"-{20,}")
_WORKER_CAUGHT = re.compile(r"Caught (?P<type>\S+) in DataLoader worker process (?P<n>\d+)\.")
_LAUNCHER_EXCEPTIONS = frozenset({"ChildFailedError", "ProcessRaisedException", "ProcessExitedException"})
_RANK_LABEL = re.compile(r"^\s*\[rank(?P<n>\d+)\]: ?", re.M)
_FATAL = re.compile(r"^Fatal Python error: .*$", re.M)
_FATAL_WITH_WORDS = re.compile(r"^Fatal Python error: .*\S.*$", re.M)
# What glibc prints as it aborts the process: its heap checks (`free(): double free detected in tcache 2`,
# `double free or corruption (out)`, `corrupted size vs. prev_size`), the stack protector, assert.h's failed
# assertion (`prog: file.c:12: func: Assertion `n > 0' failed.`).
LIBC_ABORT = re.compile(
    rf"^(?:{sig_.GLIBC_HEAP_CHECK.replace('?P<said>', '')}"
    r"|\*\*\* (?:stack smashing|buffer overflow) detected \*\*\*.*|\S+: \S+:\d+: .+: Assertion .+ failed\.)$",
    re.M,
)
CUDA = re.compile(r"CUDA error|CUDA driver error|AcceleratorError|CUDA-capable device", re.M)
# The DataLoader's own reports of a worker gone (torch/csrc/DataLoader.cpp, torch/utils/data/dataloader.py)
_LOADER_REPORT = re.compile(
    r"^.*(?:DataLoader worker \(pid\(?s?\)? [\d, ]+\) (?:is killed by signal|exited unexpectedly)"
    r"|ERROR: Unexpected [a-z ]+ encountered in worker\.).*$",
    re.M,
)
# torch.multiprocessing's and torchrun's words about the processes they started
_LAUNCHER_REPORT = re.compile(
    r"^.*(?:process \d+ terminated with (?:signal|exit code)|-- Process \d+ terminated with the following error"
    r"|Root Cause \(first observed failure\)|ChildFailedError).*$",
    re.M,
)
_SIGNAL_WORDS = "|".join(re.escape(t) for t in sig_.SIGNAL_TEXT)
# How an output says its main process died by a signal, where no launcher labels it with a rank (Slurm's task
# lines and torchrun's exitcode do: verdict/ranks.py reads those)
_DIED_BY = (
    re.compile(rf"^Fatal Python error: (?P<text>{_SIGNAL_WORDS})\s*$", re.M),  # faulthandler
    re.compile(rf"(?:^|: line \d+: +\d+ )(?P<text>{_SIGNAL_WORDS}) +\(core dumped\).*$", re.M),  # a shell's
)
_CUDA_FAMILY = re.compile(r"^.*(?:CUDA|CUDNN_STATUS_|cuDNN error|CUBLAS_STATUS_|cuBLAS error|NCCL).*$", re.M)

PY_EXCEPTION = re.compile(
    r"^(?:[A-Za-z_][\w.]*\.)?[A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|Warning)\b(?::.*)?$"
    r"|^[A-Za-z_][\w.]*Error:.*$",
    re.M,
)
WARNING = re.compile(r"^(?:[\w.]*\.)?\w*Warning\b|^\S+:\d+: \w*Warning:")
# Hydra's last words on every error: never the telling line.
_BOILERPLATE = re.compile(r"^Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace\.$", re.M)
# Hydra's own errors (a bad override, a config it cannot compose) come without a traceback:
# a headline, then the reason on a later line, between hints.
_HYDRA_HEADLINE = re.compile(
    rf"^(?:{sig_.HYDRA_OVERRIDE_REFUSED}|Could not load '[^']*'\.?|Cannot find primary config.*|In '[^']*': .*"
    # instantiate(): the reason is on the next line
    rf"|{sig_.HYDRA_INSTANTIATE_FAILED})$",
    re.M,
)
_HYDRA_HINT = re.compile(
    r"^(?:To append to your config use|See https?://|Available options:|full_key:|object_type=|\s"
    r"|Either remove \+ prefix|Or add a second \+)"
)


def _hydra_error(text: str, traced: bool) -> str:
    """Output.hydra_error; traced: the text holds a traceback (whose end is the error, not the line before Hydra's
    hint)."""
    head = sig_.last_match(_HYDRA_HEADLINE, text)
    if head is None:
        return "" if traced else _hydra_message_alone(text)
    line = sig_.line_of(text, head)
    for after in text[head.end() :].splitlines():
        if after.strip() and not _HYDRA_HINT.match(after) and not _BOILERPLATE.match(after):
            return f"{line} {after.strip()}"
    return line


def _hydra_message_alone(text: str) -> str:
    """Hydra's error with no headline of its own (`Multiple values for model. To override a value use 'override
    model: wide'`): where no traceback is printed, run_and_report prints only the exception's text before its
    boilerplate, so the line before the boilerplate is the error. "" where the boilerplate is absent."""
    boilerplate = sig_.last_match(_BOILERPLATE, text) if "HYDRA_FULL_ERROR" in text else None
    if boilerplate is None:
        return ""
    for line in reversed(text[: boilerplate.start()].splitlines()):
        if line.strip() and not _HYDRA_HINT.match(line):
            return line.strip()
    return ""


def watchdog_ended(text: str) -> str:
    """`Timeout (0:00:03)!`: the line of faulthandler's watchdog dump where it is the last the text holds, as a
    process its watchdog ended prints it (exit=True: `_exit(1)` right after); "" otherwise: a dump that repeats, or
    pytest's `faulthandler_timeout`, leaves the process running and printing."""
    dumps = list(sig_.WATCHDOG_DUMP.finditer(text)) if "Timeout (" in text else []
    if not dumps or text[dumps[-1].end() :].strip():
        return ""
    return dumps[-1].group(0).split("\n", 1)[0]


# An option parser's refusal of its command line: argparse's (and jsonargparse's, LightningCLI's) `usage: PROG ...`,
# then, its last line, `PROG: error: message` (jsonargparse: `error: message`); click's `Usage: PROG [OPTIONS]`,
# `Try 'PROG --help' for help.`, then `Error: message`. Exit status 2, the parser's own exit: nothing after it.
_USAGE_HEAD = re.compile(r"^(?:usage|Usage): \S", re.M)
_USAGE_ERROR = re.compile(r"(?:\S.*?: )?error: \S.*|Error: \S.*")


def _glibc_aborted(text: str) -> bool:
    """glibc's words as it aborts are the process's last (a dump or torch's backtrace may follow them), not a
    child's before the main's own traceback."""
    said = sig_.last_match(LIBC_ABORT, text) if sig_.could_match(LIBC_ABORT, text) else None
    return said is not None and TRACEBACK_HEAD not in text[said.end() :]


def usage_error(text: str) -> str:
    """An option parser's refusal (`main.py: error: unrecognized arguments: lr=0.1`): the last line of the text,
    after its last usage block (click's with its `--help` hint), no traceback between; "" otherwise."""
    heads = list(_USAGE_HEAD.finditer(text)) if "sage: " in text else []
    if not heads:
        return ""
    after = text[heads[-1].end() :]
    lines = [line.strip() for line in after.splitlines() if line.strip()]
    if not lines or not _USAGE_ERROR.fullmatch(lines[-1]) or TRACEBACK_HEAD in after:
        return ""
    if heads[-1].group(0).startswith("Usage") and "--help" not in after:  # click's, else any `Usage: 12 GB`
        return ""
    return lines[-1]


@dataclass(frozen=True)
class Call:
    """One frame of a traceback: where, and the source line Python printed under it ("" where none)."""

    path: str
    lineno: str  # as printed
    function: str
    code: str = ""

    def frame(self) -> Frame:
        return Frame(self.function, self.path, self.lineno)


@dataclass(frozen=True)
class Traceback:
    """One `Traceback (most recent call last):` and what follows it up to its exception's line."""

    text: str = field(repr=False)  # the whole output it stands in
    at: int  # the head's offset in the text
    start: int  # where its head starts: `Original Traceback`'s first letter for a worker's
    on_own_line: bool  # the head (or `Original Traceback`) is its line's whole text, as Python prints it
    ignored: bool  # `Exception ignored in: ...` before it: Python went on
    chained: bool  # `During handling of the above exception` (or the direct cause) just before it
    # "main", "thread NAME", "worker N" (a DataLoader worker's, re-raised), "rank N" (labelled, or told by
    # torch.multiprocessing), "remote" (a process pool's worker's, the cause the main re-raised), "manager" (a
    # multiprocessing Manager's server's, quoted in the RemoteError the main raised), "ignored"
    # (Python went on); a launcher's own exception is `is_launchers`
    origin: str

    @functools.cached_property
    def lines(self) -> list[str]:
        """The lines after the head's line, to the text's end."""
        return self.text[self.at :].splitlines()[1:]

    @functools.cached_property
    def exception_at(self) -> int:
        """The index in lines of the first line not indented (its exception's, for a traceback no label
        prefixes), -1: none (cut short)."""
        return _first_unindented(self.lines)

    @functools.cached_property
    def own_lines(self) -> list[str]:
        """The lines that are this traceback's own: where its head has a rank's `[rankN]: ` label, that label
        taken off each of its lines, up to the first line another process printed; else lines."""
        label = _RANK_LABEL.match(self.text, self.text.rfind("\n", 0, self.at) + 1)
        if label is None:
            return self.lines
        rank, own = label["n"], []
        for line in self.lines:
            label = _RANK_LABEL.match(line)
            if label is None or label["n"] != rank:
                break
            own.append(line[label.end() :])
        return own

    @functools.cached_property
    def own_exception_at(self) -> int:
        return _first_unindented(self.own_lines)

    @property
    def exception(self) -> str:
        """The exception's first line (`ValueError: bad batch`), "" where the traceback was cut short. A message
        that starts with a newline (`ValueError: ` alone, torch's invalid TORCH_LOGS) is told by its first line of
        words: the type alone tells no failure from another."""
        if self.own_exception_at < 0:
            return ""
        line = self.own_lines[self.own_exception_at].strip()
        kind, colon, rest = line.partition(":")
        if not colon or rest.strip() or " " in kind:
            return line
        after = self.own_lines[self.own_exception_at + 1 : self.own_exception_at + 2]
        # the message's next line, right after it; a blank one: its message was blank (`raise ValueError("\n")`),
        # and what follows is what the program printed next
        if after and after[0].strip() and TRACEBACK_HEAD not in after[0]:
            return f"{kind}: {after[0].strip()}"
        return line

    @property
    def type(self) -> str:
        return self.exception.split(":", 1)[0].strip()

    @property
    def message(self) -> str:
        """The full message: the exception line's rest and the lines after it, up to a blank line."""
        if self.own_exception_at < 0:
            return ""
        more = []
        for line in self.own_lines[self.own_exception_at + 1 :]:
            if not line.strip() or TRACEBACK_HEAD in line:
                break
            more.append(line.strip())
        return "\n".join([self.exception.partition(":")[2].strip(), *more]).strip()

    @property
    def is_launchers(self) -> bool:
        """A launcher's own exception about the processes it started (torchrun's, torch.multiprocessing's)."""
        return self.type.rsplit(".", 1)[-1] in _LAUNCHER_EXCEPTIONS

    @functools.cached_property
    def by_exit_cleanup(self) -> bool:
        """Printed by multiprocessing's exit cleanup, which reports a finalizer's error and goes on (a temporary
        folder it could not remove after the program had run out of files: the seventy-ninth set's): not the
        failure, nor its place."""
        first = self.calls[0] if self.calls else None
        return first is not None and first.function in _EXIT_CLEANUP and first.path.endswith(_MP_UTIL)

    @functools.cached_property
    def calls(self) -> tuple[Call, ...]:
        """Its frames, outermost first, as printed (a frame's code is the indented line under it that is no
        frame)."""
        found = []
        lines = self.own_lines
        end = self.own_exception_at if self.own_exception_at >= 0 else len(lines)
        for i, line in enumerate(lines[:end]):
            m = FRAME.match(line)
            if m:
                after = lines[i + 1] if i + 1 < len(lines) else ""
                code = "" if FRAME.match(after) or not after[:1].isspace() else after.strip()
                found.append(Call(m["file"], m["line"], m["func"], code))
        return _one_process_calls(found)


def _one_process_calls(calls: list[Call]) -> tuple[Call, ...]:
    """The calls of one process where two processes' tracebacks of one failure ran into each other under one head
    (two ranks whose multiprocessing reports came at once: `Process SpawnProcess-1:`, `Process SpawnProcess-2:`, both
    heads, then one's frames and the other's): the frames start again at the outermost one; the longest run of
    them, the first where two are as long."""
    starts = [i for i, call in enumerate(calls) if call == calls[0]] if calls else []
    if len(starts) < 2:
        return tuple(calls)
    runs: list[list[Call]] = [calls[a:b] for a, b in zip(starts, [*starts[1:], len(calls)])]
    longest = max(len(run) for run in runs)
    return tuple(next(run for run in runs if len(run) == longest))


@dataclass(frozen=True)
class FaultDump:
    """faulthandler's dump of a fatal signal: `Fatal Python error: Segmentation fault` and each thread's stack."""

    at: int
    line: str  # `Fatal Python error: Segmentation fault`
    threads: tuple


def _first_unindented(lines: list[str]) -> int:
    return next(
        (
            i
            for i, line in enumerate(lines)
            if line and not line[0].isspace() and not sig_.INTERLEAVED_HEAD.fullmatch(line)
        ),
        -1,
    )


# What Python prints before a traceback it then goes on from: an exception it ignored (in `__del__`, an atexit
# callback, a thread started by _thread), and logging's report of a handler's error (`logging.raiseExceptions`).
_WENT_ON = ("Exception ignored", "--- Logging error ---")


def _origin(text: str, at: int, line_start: int) -> str:
    """Which process or thread printed the traceback at `at`: from its head's label and the line before."""
    label = _RANK_LABEL.match(text, line_start)
    if label:
        return f"rank {label['n']}"
    before_start = text.rfind("\n", 0, max(line_start - 1, 0)) + 1
    before = text[before_start : max(line_start - 1, before_start)]
    spawned = _SPAWN_RAISED.match(text, before_start)
    if spawned:  # torch.multiprocessing's report of the process it started as that rank
        return f"rank {spawned[1]}"
    thread = THREAD_FAILED.match(text, before_start)
    if thread:
        return thread_named(thread)
    if text.startswith("Original ", line_start):
        worker = _WORKER_CAUGHT.search(text, max(0, line_start - 400), line_start)
        return f"worker {worker['n']}" if worker else "worker"
    above = text[text.rfind("\n", 0, max(before_start - 1, 0)) + 1 : max(before_start - 1, 0)]
    if before.strip() == '"""' and _REMOTE_TRACEBACK.fullmatch(above.strip()):
        return "remote"
    if _DASHES.fullmatch(before.strip()) and above.strip().endswith(_MANAGER_SAYS):
        return "manager"
    return "main" if not before.startswith(_WENT_ON) else "ignored"


_GROUP_HEAD = re.compile(r"^(?P<indent>[ \t]*)\+ Exception Group Traceback \(most recent call last\):$", re.M)


def unboxed(text: str) -> str:
    """text with each exception group's boxed traceback (Python 3.11's `+ Exception Group Traceback`, an
    asyncio TaskGroup's) told as a plain one: the group's frames, then its first sub-exception's, ending in
    that sub-exception with the group it came in (`ValueError: shard 1 is empty (in ExceptionGroup: unhandled
    errors in a TaskGroup (1 sub-exception))`). The first sub-exception is the failure; the group carries it."""
    if "Exception Group Traceback" not in text:
        return text
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        head = _GROUP_HEAD.match(lines[i])
        if not head:
            out.append(lines[i])
            i += 1
            continue
        column, block = len(head["indent"]), []
        i += 1
        while i < len(lines) and lines[i][column : column + 1] in ("|", "+", " ") and lines[i].strip()[:1] in "|+":
            block.append(lines[i])
            i += 1
        out.extend(_plain_group(block, column))
    return "\n".join(out)


def _plain_group(block: list[str], column: int) -> list[str]:
    frames, leaf = _group_told(block, column)
    top = [line[column + 2 :] for line in block if line[column : column + 1] == "|"]
    group_line = next((line for line in top if line and not line[0].isspace()), "")
    said = f"{leaf} (in {group_line})" if leaf and group_line else leaf or group_line
    return [TRACEBACK_HEAD, *frames, said]


_GROUP_TITLE = "Exception Group Traceback (most recent call last):"


def _group_told(block: list[str], column: int) -> tuple[list[str], str]:
    """(frames, the first leaf's exception line or "") of a group's box: its own frames, then its first
    sub-exception's, down through groups nested in it (a TaskGroup's task that ran a TaskGroup of its own) to the
    first leaf, whose exception is the failure (_plain_group says it with the outermost group that carried it). The first sub-exception's lines are those after
    the group's first separator (`+-+---- 1 ----`, at the group's column) up to the next one's (`+---- 2 ----`, or
    the closing `+-----`, two columns in); a group nested there opens with its own `+-+` at that column."""
    top = [line[column + 2 :] for line in block if line[column : column + 1] == "|"]
    frames = [line for line in top if line[:1].isspace()]
    first = next((n for n, line in enumerate(block) if line[column : column + 3] == "+-+"), None)
    if first is None:
        return frames, ""
    inner = column + 2
    end = next(
        (
            n
            for n in range(first + 1, len(block))
            if block[n][inner : inner + 2] == "+-" and block[n][inner : inner + 3] != "+-+"
        ),
        len(block),
    )
    sub = block[first + 1 : end]
    content = [line[inner + 2 :] for line in sub if line[inner : inner + 1] == "|"]
    if content[:1] == [_GROUP_TITLE]:
        head = next(n for n, line in enumerate(sub) if line[inner + 2 :] == _GROUP_TITLE)
        sub_frames, leaf = _group_told(sub[head + 1 :], inner)
    else:
        # a leaf chained to its cause (`raise FetchError(...) from e`) prints the cause first: the leaf is the last
        last = max((n for n, line in enumerate(content) if line == TRACEBACK_HEAD), default=-1)
        sub_frames = [line for line in content[last + 1 :] if line[:1].isspace()]
        leaf = next((line for line in content[last + 1 :] if line and not line[0].isspace()), "")
        # groups nested past Python's depth are printed as `... (max_group_depth is 10)`: no leaf to tell
        leaf = "" if leaf.startswith("... (max_group_depth") else leaf
    return frames + sub_frames, leaf


# CPython's word when it cannot print an exception because sys.stderr is gone (PyErr_Display at interpreter
# shutdown): `_PyObject_Dump` of the exception, then `lost sys.stderr`, written by C stdio and so possibly
# glued to the end of a traceback cut mid-line. Seen in a loader's main process whose worker had ended
# (ConnectionResetError, EOFError, the rest of the traceback lost) and in torchrun's ranks.
_LOST_STDERR = re.compile(
    r"object address  : 0x[0-9a-fA-F]+\nobject refcount : \d+\nobject type     : 0x[0-9a-fA-F]+\n"
    r"object type name: (?P<type>[\w.]+)\nobject repr     : (?P<repr>[^\n]*)\nlost sys\.stderr$",
    re.M,
)


def unlost(text: str) -> str:
    """text with each `lost sys.stderr` dump told as the exception line Python would have printed
    (`ConnectionResetError: [Errno 104] Connection reset by peer`), on a line of its own."""
    if "lost sys.stderr" not in text:
        return text

    def told(found: re.Match) -> str:
        glued = found.start() > 0 and text[found.start() - 1] != "\n"
        return ("\n" if glued else "") + _exception_from_repr(found["type"], found["repr"])

    return _LOST_STDERR.sub(told, text)


_FATAL_HEAD = "Fatal Python error: "
_TANGLED_FATAL = re.compile(r"^(?:.*Fatal Python error: ){2}.*$", re.M)


def _cut_off_fault(text: str) -> str:
    """Where faulthandler's header was cut off before its words (another thread's fault ended the process as it
    wrote), the signal torch's fatal-signal handler named just before it; "" otherwise."""
    if not sig_.last_match(_FATAL, text):
        return ""
    torch_said = sig_.last_match(sig_.TORCH_FATAL_HEAD, text)
    return torch_said.group("sig") if torch_said else ""


def untangled(text: str) -> str:
    """text with faulthandler's header written by two threads at once told once: threads that fault together
    each write `Fatal Python error: `, then the signal's words, by separate writes, so one line may read `Fatal
    Python error: Fatal Python error: Bus errorBus error` (the same failure twice, not another kind)."""
    if text.count(_FATAL_HEAD) < 2:
        return text

    def told(found: re.Match) -> str:
        line = found.group(0)
        times = line.count(_FATAL_HEAD)
        words = line.replace(_FATAL_HEAD, "").strip()
        for said in sig_.SIGNAL_TEXT:
            # the other thread's words may have gone on to the next line (`Bus errorFatal Python error: `)
            if words in (said * n for n in range(1, times + 1)):
                return _FATAL_HEAD + said
        return line

    return _TANGLED_FATAL.sub(told, text)


def _exception_from_repr(type_name: str, shown: str) -> str:
    """What str() of the exception would have said, from its repr: `EOFError()` -> `EOFError`,
    `RuntimeError('x')` -> `RuntimeError: x`, an OSError's `(104, 'Connection reset by peer')` -> `[Errno 104]
    Connection reset by peer`; else the repr's arguments as they are."""
    short = type_name.rsplit(".", 1)[-1]
    inner = shown[len(short) + 1 : -1] if shown.startswith(short + "(") and shown.endswith(")") else shown
    try:
        args = ast.literal_eval(f"({inner},)") if inner else ()
    except (SyntaxError, ValueError):
        return f"{type_name}: {inner}"
    if not args:
        return type_name
    if len(args) == 2 and isinstance(args[0], int) and isinstance(args[1], str) and type_name.endswith("Error"):
        return f"{type_name}: [Errno {args[0]}] {args[1]}"
    return f"{type_name}: {args[0] if len(args) == 1 else args}"


def _heads(text: str) -> Iterator[int]:
    """The offset of each `Traceback (most recent call last):` in text."""
    at = text.find(TRACEBACK_HEAD)
    while at != -1:
        yield at
        at = text.find(TRACEBACK_HEAD, at + 1)


def _in_workers_chain(traceback: Traceback, before: list[Traceback], text: str) -> Traceback:
    """A traceback chained to a pool worker's inside the quotes its RemoteTraceback holds (an error the worker
    raised again as its `with` block closed) is the worker's too; any other as it is."""
    last = before[-1] if before else None
    if traceback.chained and last is not None and last.origin == "remote" and '"""' not in text[last.at : traceback.at]:
        return dataclasses.replace(traceback, origin="remote")
    return traceback


def _gone_on_from(each: Traceback, before: list[Traceback]) -> Traceback:
    """each marked as a report Python or logging went on from where it is one that `Exception ignored` does not
    head: weakref.finalize's callbacks at exit (_exitfunc prints a callback's error with sys.excepthook and goes on;
    the exit status is the program's: the ninety-eighth held-out set's lc_finalize_at_exit, a TemporaryDirectory's
    rmtree failing after a run that passed), or one raised while handling such a report (a format's KeyError, then
    its ValueError: the chain is the report it went on from)."""
    if each.ignored:
        return each
    outermost = each.calls[0] if each.calls else Call("", "", "")
    if outermost.function == "_exitfunc" and outermost.path.replace("\\", "/").endswith("/weakref.py"):
        return dataclasses.replace(each, ignored=True, origin="ignored")
    if each.chained and before and before[-1].ignored:
        return dataclasses.replace(each, ignored=True, origin="ignored")
    return each


class Output:
    """A cell's output, read once (read_output): each fact parsed when first asked for, then kept."""

    def __init__(self, text: str):
        self.text = untangled(unlost(unprefixed(unboxed(unmarked(unrich(text))))))

    @functools.cached_property
    def tracebacks(self) -> tuple[Traceback, ...]:
        """Every traceback, in the order printed (each `Traceback (most recent call last):`, labelled or not)."""
        found: list[Traceback] = []
        for at in _heads(self.text):
            found.append(_gone_on_from(_in_workers_chain(self._traceback(at), found, self.text), found))
        return tuple(found)

    def _traceback(self, at: int) -> Traceback:
        text = self.text
        line_start = text.rfind("\n", 0, at) + 1
        start = line_start if text.startswith("Original ", line_start) and line_start + 9 == at else at
        end = text.find("\n", at)
        on_own_line = start == line_start and bool(
            _LINE_HEAD.fullmatch(text, line_start, end if end != -1 else len(text))
        )
        before = text.rfind("\n", 0, max(start - 1, 0)) + 1
        return Traceback(
            text,
            at,
            start,
            on_own_line,
            text.startswith(_WENT_ON, before) and not text.startswith(CTYPES_CALLBACK, before),
            any(marker in text[max(0, line_start - 120) : line_start] for marker in _CHAINED),
            _origin(text, at, line_start),
        )

    @functools.cached_property
    def chains(self) -> tuple[tuple[Traceback, ...], ...]:
        """The tracebacks grouped as Python chains them: each group from the first exception (the root cause) to
        the last raised while handling it (`During handling of the above exception`, `The above exception was
        the direct cause`)."""
        found: list[list[Traceback]] = []
        for traceback in self.tracebacks:
            if traceback.chained and found and found[-1][-1].origin == traceback.origin:
                found[-1].append(traceback)
            else:
                found.append([traceback])
        return tuple(tuple(chain) for chain in found)

    @functools.cached_property
    def cause(self) -> sig_.Found | None:
        """The highest-priority known cause (signature.CAUSES), with its line."""
        return sig_.find_cause(self.text)

    @functools.cached_property
    def abort_cause(self) -> sig_.Found | None:
        """C++'s terminate ... what(), where an abort said why."""
        return sig_.find_cause(self.text, among=sig_.ABORT_CAUSES)

    @functools.cached_property
    def cuda_cause(self) -> sig_.Found | None:
        """The highest-priority known cause whose outcome is a CUDA error."""
        from crashmatrix.outcome import Outcome

        return sig_.find_cause(self.text, among=tuple(c for c in sig_.CAUSES if c.outcome is Outcome.CUDA_ERROR))

    @functools.cached_property
    def cuda_line(self) -> str:
        """The last line of CUDA's words (a CUDA error, the driver's, an AcceleratorError), "" where none."""
        found = sig_.last_match(CUDA, self.text)
        return sig_.line_of(self.text, found) if found else ""

    @functools.cached_property
    def fatal_line(self) -> str:
        """faulthandler's last `Fatal Python error: ...` line, "" where none; for an abort, the C library's own
        words just before it where it said why it aborted (`free(): double free detected in tcache 2`)."""
        # a header cut off before its words (the process ended by another thread's fault as it wrote) says nothing
        found = sig_.last_match(_FATAL_WITH_WORDS, self.text)
        if not found:
            return ""
        before = self.text[max(0, found.start() - 400) : found.start()].rstrip("\n").rpartition("\n")[2].strip()
        if found.group(0).strip().endswith("Aborted") and LIBC_ABORT.match(before):
            return before
        return found.group(0).strip()

    @functools.cached_property
    def dumps(self) -> tuple[FaultDump, ...]:
        """faulthandler's dumps, each with its threads' stacks (up to the next dump or `Extension modules:`)."""
        found = []
        heads = list(_FATAL.finditer(self.text))
        for i, head in enumerate(heads):
            stop = heads[i + 1].start() if i + 1 < len(heads) else len(self.text)
            ext = self.text.find("\nExtension modules:", head.end(), stop)
            body = self.text[head.end() : ext if ext != -1 else stop]
            threads: tuple[Thread, ...] = tuple(parse_faulthandler(body))
            found.append(FaultDump(head.start(), head.group(0).strip(), threads))
        return tuple(found)

    @functools.cached_property
    def thread_died(self) -> re.Match | None:
        """The first `Exception in thread X:` header before a traceback."""
        return THREAD_FAILED.search(self.text) if sig_.could_match(THREAD_FAILED, self.text) else None

    @functools.cached_property
    def loader_reports(self) -> tuple[str, ...]:
        """The DataLoader's lines about its workers (killed by a signal, exited, a worker's own last words)."""
        return tuple(m.group(0).strip() for m in _LOADER_REPORT.finditer(self.text))

    @functools.cached_property
    def launcher_reports(self) -> tuple[str, ...]:
        """torchrun's and torch.multiprocessing's lines about the processes they started."""
        return tuple(m.group(0).strip() for m in _LAUNCHER_REPORT.finditer(self.text))

    @functools.cached_property
    def cuda_lines(self) -> tuple[str, ...]:
        """Every line of CUDA's, cuDNN's, cuBLAS's or NCCL's."""
        return tuple(m.group(0).strip() for m in _CUDA_FAMILY.finditer(self.text))

    @functools.cached_property
    def hydra_error(self) -> str:
        """'Could not override 'x'. Key 'x' is not in struct': Hydra's headline and its reason, on one line."""
        return _hydra_error(self.text, bool(self.tracebacks))

    @functools.cached_property
    def traceback_exception(self) -> str:
        """The exception line that ends the last traceback (its first line when the message spans several, with
        the next where the first ends with a colon)."""
        last = self.last_traceback()
        if last is None or last.exception_at < 0:
            return ""
        # the text's own line, label and all: a rank's labelled output is read apart (verdict/ranks.py)
        line, after = last.lines[last.exception_at].strip(), last.lines[last.exception_at + 1 :]
        return _torchscripts_own(line, after) or _extension_build(line, after) or _with_what_follows(line, after)

    @functools.cached_property
    def exception_lines(self) -> tuple[str, ...]:
        """Every line that looks like an exception's (`ValueError: ...`, `KeyError`), warnings among them."""
        if not sig_.could_match(PY_EXCEPTION, self.text):
            return ()
        return tuple(m.group(0).strip() for m in PY_EXCEPTION.finditer(self.text))

    @functools.cached_property
    def exception_line(self) -> str:
        """The exception a user would quote: Hydra's own error, the end of the last traceback (torch.load's
        refusal with what it refused), the last exception-looking line that is no warning, else the last
        non-empty line (Hydra's boilerplate never)."""
        stripped = _BOILERPLATE.sub("", self.text) if sig_.could_match(_BOILERPLATE, self.text) else self.text
        out = self if stripped == self.text else Output(stripped)
        # Hydra's error read where its boilerplate still stands: a message of no headline of its own is the line
        # before it, whatever the program printed after (an atexit's line, wandb's sync)
        found = self.hydra_error or _with_weights_only_reason(out.traceback_exception, stripped)
        if found:
            return found
        lines = out.exception_lines
        errors = [line for line in lines if not WARNING.match(line)]
        if errors or lines:
            return (errors or lines)[-1]
        for line in reversed(stripped.splitlines()):
            if line.strip():
                return line.strip()
        return ""

    @functools.cached_property
    def died_by(self) -> str:
        """The signal the output says its main process died by (SIGSEGV): faulthandler's `Fatal Python error:
        Segmentation fault`, else a shell's `Segmentation fault (core dumped)`, else glibc's words as it aborts;
        "" where it says none."""
        for pattern in _DIED_BY:
            found = sig_.last_match(pattern, self.text)
            if found:
                return sig_.SIGNAL_TEXT[found.group("text")]
        return _cut_off_fault(self.text) or ("SIGABRT" if _glibc_aborted(self.text) else "")

    @functools.cached_property
    def is_distributed(self) -> bool:
        """A distributed job's output: a rank's label, a launcher's report (verdict/ranks.py)."""
        from crashmatrix.verdict import ranks

        return ranks.is_distributed(self.text)

    @functools.cached_property
    def collective_timeout(self) -> bool:
        """A collective (or the rendezvous) waited for a peer until its timeout."""
        from crashmatrix.verdict import ranks

        return sig_.search(ranks.COLLECTIVE_TIMEOUT, self.text) is not None

    @functools.cached_property
    def root_failure(self):
        """The distributed job's first failure by its output alone (verdict/ranks.py: no recorder's files)."""
        from crashmatrix.verdict import ranks

        return ranks.root_failure(self.text)

    def last_traceback(self) -> Traceback | None:
        """The last traceback but those Python or logging went on from (_WENT_ON); the last where all were. Where
        the last is the main's own words for a DataLoader worker's error it caught (`raise ... from err`, chained
        right after the worker's Original Traceback), the worker's: it failed first, as where the loader alone
        raised it again."""
        kept = [t for t in self.tracebacks if not t.ignored] or self.tracebacks
        if len(kept) > 1 and main_reraised_worker(kept[-2], kept[-1]):
            return kept[-2]
        return kept[-1] if kept else None


def main_reraised_worker(worker: Traceback, last: Traceback) -> bool:
    """Whether `last` is the main's own exception chained right after a DataLoader worker's Original Traceback (the
    program caught the loader's error and raised its own `from` it), not the worker's own chain printed inside the
    loader's message (a worker's PEP 479 RuntimeError, pillow's TypeError from its KeyError: their frames run
    from the worker's loop)."""
    return (
        last.chained
        and worker.origin.startswith("worker")
        and not any(c.function == "_worker_loop" and c.path.endswith(_WORKER_PY) for c in last.calls)
    )


_WORKER_PY = "torch/utils/data/_utils/worker.py"


def _with_what_follows(line: str, after: list[str]) -> str:
    """A message whose first line ends with a colon announces what follows, and what follows tells one failure
    from another: `Error(s) in loading state_dict for Net:` is followed by `Missing key(s) in state_dict:
    "fc.bias".` or by `size mismatch for fc.weight: ...`; the first line alone made them one. Where what follows
    is a list of lines each after a tab (torch's before each of `Missing key(s)` and `Unexpected key(s)`), all of
    them: the keys it did not expect are what tells a quantized checkpoint (`scale`, `zero_point`) from a pruned
    one (`weight_orig`), and the second line was left out."""
    if not line.endswith(":"):
        return line
    # the message's own lines run to its first blank one; after it, what the program printed next
    lines = list(itertools.takewhile(str.strip, after))
    if not lines:
        return line
    listed = [lines[0].strip()]
    if lines[0].startswith("\t"):  # torch's list, `"\n\t".join(...)`; not TorchScript's quoted source (spaces)
        for more in lines[1:_LISTED_AT_MOST]:
            if not more.startswith("\t"):
                break
            listed.append(more.strip())
    return " ".join([line, *listed])


# TorchScript's headline for any error its interpreter raised: what failed follows its own traceback, last
TORCHSCRIPT_FAILED = "The following operation failed in the TorchScript interpreter."
# PEP 479: a StopIteration that leaves a generator (or coroutine) is turned into this RuntimeError by Python, at the
# boundary of the generator the failing stack resumed with next(). Its cause's traceback holds the generator's
# frames alone, none of the failing stack's, yet it was raised in that one call (the fifty-sixth held-out set's
# sm_batch_sampler_stopiteration: a BatchSampler's source ran out): the RuntimeError is what failed, at the
# generator's line that let the StopIteration out (verdict/exception_place.py).
GENERATOR_STOPPED = re.compile(
    r"^RuntimeError: (?:async generator|generator|coroutine) raised Stop(?:Async)?Iteration$"
)


def _torchscripts_own(line: str, after: list[str]) -> str:
    """A scripted or traced model's error told by the one its interpreter raised (`RuntimeError: The size of
    tensor a (5) must match ...`), the last exception line of the message, after TorchScript's own traceback: the
    headline is the same for every error it raises (the fortieth held-out set's qz_trace_batch_baked). "" for any
    other line."""
    if not line.endswith(TORCHSCRIPT_FAILED):
        return ""
    raised = [a.strip() for a in after if a[:1].strip() and PY_EXCEPTION.match(a.strip())]
    return f"{raised[-1]} (in the TorchScript interpreter)" if raised else ""


# torch.utils.cpp_extension's refusal to go on when the program's C++ source does not compile: its message is
# ninja's compile command, the same for every error in that source; the compiler's first error says which
_BUILD_FAILED = re.compile(r"^(?P<head>(?:\w+\.)*\w*Error: Error building extension '[^']+'): ")
_COMPILER_ERROR = re.compile(r"^(?P<file>\S+?):(?P<line>\d+)(?::\d+)?: (?:fatal )?error: (?P<what>.+)$")
# ... or the linker's, where every source compiled (`/usr/bin/ld: cannot find -lfastblas: No such file or directory`)
_LINKER_ERROR = re.compile(r"^(?:\S*/)?ld(?:\.\w+)?: (?P<what>.+)$")


def _extension_build(line: str, after: list[str]) -> str:
    """`RuntimeError: Error building extension 'ops': main.cpp:4: error: ‘AT_CHECK’ was not declared in this
    scope; ...`: the compiler's first error, by the source's file name and line (the ninety-second set's legacy
    macro), in place of the build command torch quotes. "" for any other line, or where no compiler error shows."""
    head = _BUILD_FAILED.match(line)
    if head is None:
        return ""
    for each in after:
        said = _COMPILER_ERROR.match(each.strip())
        if said:
            return f"{head['head']}: {os.path.basename(said['file'])}:{said['line']}: error: {said['what']}"
    linked = next((m for m in map(_LINKER_ERROR.match, (each.strip() for each in after)) if m), None)
    return f"{head['head']}: ld: {linked['what']}" if linked else ""


_LISTED_AT_MOST = 8  # indented lines a message's head announces, read on one line


def _with_weights_only_reason(line: str, text: str) -> str:
    """torch.load's refusal told by what it refused: its headline and its WeightsUnpickler error, on one line.
    (Its first line is the same for every file it refuses; what it refused, and so what to allow, follows
    `WeightsUnpickler error:`, on that line or after a blank one, before the advice.)"""
    head, found, _advice = line.partition(sig_.WEIGHTS_ONLY_HEAD)
    at = text.rfind(sig_.UNPICKLER_SAYS)
    if not found or at == -1:
        return line
    said = text[at + len(sig_.UNPICKLER_SAYS) :].lstrip()
    reason = said.split("\n", 1)[0].split(" Please use ", 1)[0].strip()
    return f"{head}{sig_.WEIGHTS_ONLY_HEAD} {sig_.UNPICKLER_SAYS} {reason}" if reason else line


@functools.lru_cache(maxsize=16)
def read_output(text: str) -> Output:
    """The text's Output: the same one for the same text while it is among the last few read."""
    return Output(text)
