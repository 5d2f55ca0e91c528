"""From how a cell's process ended to an outcome word, a signal name, one telling line and a signature.

Pure: exit status, the timeout flag, the tail of the cell's output and the
probe's own report go in; nothing is read or run here. The patterns come from
the messages PyTorch, CUDA and CPython really print (../shared/DESIGN.md); the
known causes and their priority live in crashmatrix.verdict.signature.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass

from crashmatrix.outcome import Outcome
from crashmatrix.plain_text import plain
from crashmatrix.verdict import ranks as ranks_
from crashmatrix.verdict import signature as sig_
from crashmatrix.verdict.exception_place import exception_place, started_by_spawn
from crashmatrix.verdict.own_cleanup import (
    DURING_HANDLING,
    FINALIZER_FIRST,
    finalizer_failed_first,
    masked_by_own_cleanup,
)
from crashmatrix.verdict.parsed import (
    GENERATOR_STOPPED,
    LIBC_ABORT,
    TRACEBACK_HEAD,
    WARNING,
    FaultDump,
    Output,
    read_output,
    thread_named,
    usage_error,
    watchdog_ended,
)
from crashmatrix.verdict.remedies import FEEDER_SAYS, STARTED_WORKER_SAYS
from crashmatrix.verdict.signature import WATCHDOG_ENDED, signal_name
from crashmatrix.verdict.stacks import Thread, is_programs

_WORKER_ERROR_TEXT = {
    "segmentation fault": "SIGSEGV",
    "bus error": "SIGBUS",
    "floating-point exception": "SIGFPE",  # torch/csrc/DataLoader.cpp's words (libtorch_python's strings)
}


@dataclass(frozen=True)
class Verdict:
    outcome: Outcome
    signal: str = ""
    error: str = ""
    signature: str = ""
    rank: int | None = None  # a distributed cell: the global rank whose failure this is
    told: str = ""  # that rank's own output (its traceback or fatal-signal dump): where forensics finds its place
    by_message: bool = False  # the signature is the telling line, masked: no known cause names it (signed_by_place)


def _signal_of(found: sig_.Found) -> str:
    groups = found.match.groupdict()
    if groups.get("sig"):
        return groups["sig"]
    if groups.get("num"):
        return signal_name(int(groups["num"]))
    if groups.get("text"):
        t = groups["text"].strip()
        return sig_.SIGNAL_TEXT.get(t) or _WORKER_ERROR_TEXT.get(t.lower()) or ""
    return ""


def exception_line(text: str) -> str:
    """The exception a user would quote: Hydra's own error, the end of the last traceback (torch.load's
    refusal with what it refused), the last exception-looking line that is no warning, else the last
    non-empty line (Hydra's boilerplate never). Read from the text's Output (verdict/parsed.py)."""
    return read_output(text).exception_line


def _generic_cuda(out: Output, sig: str) -> Verdict | None:
    """A CUDA/cuDNN/NCCL error none of the known causes names: its line, masked, is the signature."""
    line = out.cuda_line
    return Verdict(Outcome.CUDA_ERROR, sig, line, sig_.mask(line)) if line else None


def _told_abort(sig: str, out: Output) -> sig_.Found | None:
    """An abort's own words (C++'s terminate ... what()), where the signal was SIGABRT."""
    return out.abort_cause if sig == "SIGABRT" else None


def _raised_before_its_death(sig: str, stderr: str, stdout: str, text: str, report: dict) -> Verdict | None:
    """A main process whose uncaught exception's traceback is the last thing it printed, then died by a fault's
    signal with no fatal-signal dump (faulthandler, on in every cell, is off only once the interpreter is being
    torn down): a native library's cleanup faulted at exit after the program had failed on its own (a review's
    program run without inject: its ValueError, then SIGSEGV; `diagnose` of the same log says the ValueError).
    The exception is the failure, told as the exit status 1 it would have given, its error ending `then killed
    by SIGSEGV at exit`. Only without inject: under inject the recorded exit says whether the exception was
    uncaught and whether the death came at exit (engine/loop.py). Text alone cannot tell a handled exception's
    traceback printed last, then a silent death mid-run with faulthandler turned off by the program (a review's),
    from this: the commoner reading is taken. None otherwise."""
    if report or sig not in _FAULTS:
        return None
    out = read_output(stderr)
    last = out.last_traceback()
    if last is None or last.origin != "main" or last.ignored or out.fatal_line or last.exception_at < 0:
        return None
    after = [line.strip() for line in last.lines[last.exception_at + 1 :]]
    if any(line and not line.startswith(_HYDRA_FULL_ERROR) and not _DEATH_SAID.search(line) for line in after):
        return None
    failed = _from_output(1, stderr, stdout, text, report)
    return then_killed(failed, sig)


def then_killed(failed: Verdict, signal: str) -> Verdict:
    """The verdict of a process that failed on its own, then died by `signal` at exit: its own failure's kind,
    place and error, the error ending `then killed by SIGABRT at exit`, with the signal it died by. Its outcome is
    `crash` where the failure was an ordinary error (DESIGN.md's outcome words: it did not exit, a signal ended it;
    a set's judge of a program whose IndexError came before a library's abort at exit), and keeps its own where
    the kind says more (an oom or cuda_error a signal ended, a worker's crash)."""
    outcome = Outcome.CRASH if failed.outcome is Outcome.FAIL else failed.outcome
    told = f"{failed.error}; then killed by {signal} {sig_.AT_EXIT}"
    return dataclasses.replace(failed, outcome=outcome, signal=failed.signal or signal, error=told)


_FAULTS = frozenset({"SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT"})
_HYDRA_FULL_ERROR = "Set the environment variable HYDRA_FULL_ERROR=1"
# a shell's or a scheduler's word of the death, after what the process printed (`Segmentation fault (core dumped)`,
# bash's `line 1: 2660 Segmentation fault ...`, srun's `error: n1: task 0: Segmentation fault`): a review's job log
_DEATH_SAID = re.compile(r"\b(?:Segmentation fault|Aborted|Bus error|Illegal instruction|Floating point exception)\b")


def _crash(sig: str, stderr: Output, text: Output, fallback: str) -> Verdict:
    """The main process died by a signal: a CUDA error that ended in abort() stays a CUDA error; an abort
    that said why (terminate's what()) is told by that line."""
    if sig == "SIGABRT":
        cuda = text.cuda_cause
        if cuda:
            return Verdict(Outcome.CUDA_ERROR, sig, cuda.line, cuda.signature)
        generic = _generic_cuda(text, sig)
        if generic:
            return generic
    told = _told_abort(sig, text)
    if told:
        return Verdict(Outcome.CRASH, sig, told.line, told.signature, by_message=told.cause.placed)
    interrupted = _keyboard_interrupt(sig, stderr)
    if interrupted:
        # Python ends an uncaught KeyboardInterrupt by SIGINT to itself (3.8+), after printing its traceback:
        # the place it was raised (a Ctrl-C, the program's own raise, a handler's) is that traceback's
        return Verdict(Outcome.CRASH, sig, interrupted, sig_.mask(interrupted), by_message=True)
    return Verdict(Outcome.CRASH, sig, stderr.fatal_line or fallback, sig_.KILLED_BY_SIGNAL)


def _keyboard_interrupt(sig: str, stderr: Output) -> str:
    """The line of the KeyboardInterrupt whose traceback ended the program, where it died by SIGINT; else ""."""
    if sig != "SIGINT" or not stderr.tracebacks:
        return ""
    line = stderr.exception_line
    return line if line == "KeyboardInterrupt" or line.startswith("KeyboardInterrupt:") else ""


def signed_by_place(verdict: Verdict, where: str, launched: bool = False) -> Verdict:
    """The verdict of a death by signal signed with the program's own frame that `where` ends with
    (crashmatrix.verdict.signature.with_place): two segfaults in two functions are two failures. launched:
    `where` is where a synchronous rerun launched the failing kernel. An exception of no known cause is signed
    by its place too (grouping 2)."""
    signature = sig_.with_place(verdict.signature, where, launched, verdict.by_message)
    return dataclasses.replace(verdict, signature=signature)


THREAD_REFUSED = "RuntimeError: can't start new thread"  # the OS refused a thread; forensics reads it too


def _told_by_report(line: str, report: dict) -> Verdict | None:
    """What the process's own report tells: a non-finite value it found; the OS refusing a thread's stack while the
    process ran under an address-space limit (RLIMIT_AS, which inject records as it ends): memory ran out, however
    Python's words read (the fiftieth and ninety-fourth held-out sets). None otherwise: the words alone may be
    RLIMIT_NPROC's."""
    if report.get("status") == "nan":
        return Verdict(Outcome.NAN, "", report.get("reason", "non-finite value"), sig_.NON_FINITE)
    capped = report.get("address_space_cap_mb")
    if not line.startswith(THREAD_REFUSED) or not isinstance(capped, (int, float)):
        return None
    told = f"{line} (under an address-space limit of {capped:g} MiB)"
    return Verdict(Outcome.OOM, "", told, sig_.mask(line), by_message=True)


def _from_output(returncode: int | None, stderr: str, stdout: str, text: str, report: dict) -> Verdict:
    """Exited non-zero: the class comes from the output, the highest-priority known cause first."""
    found = read_output(text).cause
    if found and found.cause.name == sig_.GLOO_PEER_LOST and (first := _thread_failed_first(stderr)) is not None:
        # a consequence: the child process that failed first, of its own error, ended the connection its peer then
        # lost (the forty-third set's ranks started by mp.Process: rank 0 could not pickle what it broadcast, rank
        # 1's broadcast lost its peer). Not a thread's: it ends no process, so no connection (a review's metrics
        # thread that failed in rank 0 before rank 1 was killed)
        process, exception = first
        if process.startswith("process ") and sig_.find_cause(exception) is None:
            told = f"{exception}; in {process}, first: then {found.line}"
            return Verdict(Outcome.FAIL, "", told, sig_.mask(exception), by_message=True)
    told_by_worker = _told_by_workers(found, stderr)
    if told_by_worker is not None:
        return told_by_worker
    if found:
        sig = _signal_of(found) if found.cause.outcome is Outcome.WORKER_CRASH else ""
        # a worker's failed assert() in native code is signed by that assertion, as the main's is (_crash)
        asserted = _told_abort(sig, read_output(text)) if sig == "SIGABRT" else None
        signature = asserted.signature if asserted and asserted.cause is sig_.NATIVE_ASSERT else found.signature
        return Verdict(found.cause.outcome, sig, found.line, signature)
    generic = _generic_cuda(read_output(text), "")
    if generic:
        return generic
    line = exception_line(stderr) or exception_line(stdout) or f"exit status {returncode}"
    if (by_report := _told_by_report(line, report)) is not None:
        return by_report
    child = _child_died(stderr)
    if child is not None:  # a process it started died first: the main's failure is what it heard of that
        dump, sig = child
        told = f"{dump.line} in {_whose_dump(dump)}"
        if any(t.at > dump.at for t in read_output(stderr).tracebacks):  # what the main then raised
            told += f"; the main then failed with {line}"
        return Verdict(Outcome.WORKER_CRASH, sig, told, sig_.WORKER_SIGNAL)
    raised = _child_raised_first(stderr, line)
    if raised:  # a Python child it ran printed its own traceback, then the main raised on its exit status
        told = f"{raised}; in a child process the main started, first: the main then failed with {line}"
        return Verdict(Outcome.FAIL, "", told, sig_.mask(raised), by_message=True)
    watchdog = watchdog_ended(stderr) if returncode == 1 else ""
    if watchdog:
        # faulthandler's watchdog (dump_traceback_later, exit=True) ended it, waiting: signed by where it waited
        told = f"{watchdog} (faulthandler's watchdog, dump_traceback_later, ended the process)"
        return Verdict(Outcome.FAIL, "", told, WATCHDOG_ENDED, by_message=True)
    earlier = _earlier_in_the_chain(stderr, line)
    if earlier is not None:
        return earlier
    first = _thread_failed_first(stderr)
    if first is not None:
        thread, exception = first
        if exception != line:  # the thread's failure is the verdict, the main's its consequence
            told = f"{exception}; in {thread}, first: the main then failed with {line}"
            return Verdict(Outcome.FAIL, "", told, sig_.mask(exception), by_message=True)
    ignored = finalizer_failed_first(stderr, line)
    if ignored:  # a finalizer of the program's failed, Python went on, and the main failed for want of what it did
        told = f"{ignored}; {FINALIZER_FIRST}: the main then failed with {line}"
        return Verdict(Outcome.FAIL, "", told, sig_.mask(ignored), by_message=True)
    return _dropped_by_a_feeder(stderr, line, sig_.mask(line)) or Verdict(
        Outcome.FAIL, "", line, sig_.mask(line), by_message=True
    )


def _told_by_workers(found, stderr: str) -> Verdict | None:
    """What DataLoader workers' own output says where the loader said only that one `exited unexpectedly`
    (_worker_exited_told) or that its `timeout` ran out (a worker's feeder dropped the sample: _dropped_by_a_feeder);
    None where it says nothing more."""
    if found is None:
        return None
    if found.cause.name == sig_.WORKER_EXITED:
        return _worker_exited_told(found.line, stderr)
    if found.cause.name == sig_.LOADER_TIMEOUT:
        return _dropped_by_a_feeder(stderr, found.line, found.signature)
    return None


def _dropped_by_a_feeder(stderr: str, line: str, signature: str) -> Verdict | None:
    """A main whose wait on a multiprocessing queue ran out (`queue.Empty`, or a DataLoader's own `timeout`) after
    a queue's feeder thread had dropped an item it could not pickle (a review's program: a lock in the item): the
    wait's own verdict (signature), its error saying so, since the text cannot tell which queue's item it was (a
    second review's programs waited on another queue, or on a worker that was only slow, and the drop fixed
    nothing). None where nothing was dropped, or the wait was no multiprocessing queue's (a `queue.Queue` of
    threads)."""
    waited = _QUEUE_EMPTY.match(line) and _raised_in(stderr, line, _QUEUES) or _LOADER_TIMED_OUT.match(line)
    dropped = _feeder_failed(stderr) if waited else ""
    if not dropped:
        return None
    told = f"{line}{FEEDER_SAYS}{dropped.partition(': ')[2]}, which this wait may have been for"
    return Verdict(Outcome.FAIL, "", told, signature, by_message=signature == sig_.mask(line))


_QUEUE_EMPTY = re.compile(r"^(?:_?queue)\.Empty\b")
_LOADER_TIMED_OUT = re.compile(r"^RuntimeError: DataLoader timed out after \d+ seconds")


def _raised_in(stderr: str, line: str, path: str) -> bool:
    """Whether the last traceback that ended in `line` was raised in a file whose path ends with `path`."""
    for printed in reversed(read_output(stderr).tracebacks):
        if printed.exception == line:
            return bool(printed.calls) and printed.calls[-1].path.replace("\\", "/").endswith(path)
    return False


def _worker_exited_told(loader_said: str, stderr: str) -> Verdict | None:
    """The loader said only `exited unexpectedly`; the worker's own output says how, where it printed it: its
    fatal-signal dump (its main was waiting on the queue as it died, or its own `ERROR: Unexpected ...` line went to
    a log the program keeps), or its traceback as spawn started it (what the parent sent could not be rebuilt), after
    which it exited 1. None where it printed neither."""
    child = _child_died(stderr)
    if child is not None:
        dump, sig = child
        return Verdict(
            Outcome.WORKER_CRASH, sig, f"{dump.line} in {_whose_dump(dump)}; {loader_said}", sig_.WORKER_SIGNAL
        )
    started = _spawned_child_failed(stderr)
    if started is None:
        return None
    exception, place = started
    told = f"{exception}{STARTED_WORKER_SAYS}the main then failed with {loader_said}"
    return Verdict(Outcome.WORKER_CRASH, "", told, sig_.with_place(sig_.mask(exception), place, by_message=True))


def _child_died(stderr: str) -> tuple[FaultDump, str] | None:
    """(the dump, its signal) of the first fatal-signal dump a multiprocessing child printed (its stack runs from
    multiprocessing's Process._bootstrap, forked or spawned alike): a process the main started, not the main,
    whose death the main then heard of; None where no child dumped so. A SIGTERM or SIGINT is no cause (a
    parent's stop of its child)."""
    for dump in read_output(stderr).dumps:
        sig = sig_.SIGNAL_TEXT.get(dump.line.partition(": ")[2].strip(), "")
        if sig and sig not in ("SIGTERM", "SIGINT") and any(_is_process_bootstrap(t) for t in dump.threads):
            return dump, sig
    return None


def _spawned_child_failed(stderr: str) -> tuple[str, str] | None:
    """(exception line, place) of the first traceback a process started by spawn or forkserver printed as it
    started, before running anything it was sent (exception_place.started_by_spawn: unpickling the process object,
    a class only the parent's `__main__` defines, a module only the parent could import; or importing the main
    script again as `__mp_main__`). None where no such traceback was printed."""
    for child in read_output(stderr).tracebacks:
        if not child.ignored and child.exception and started_by_spawn(child):
            end = child.at + len("\n".join(child.text[child.at :].splitlines()[: child.exception_at + 2]))
            return child.exception, exception_place(child.text[child.start : end])
    return None


def _whose_dump(dump: FaultDump) -> str:
    """`a DataLoader worker` where the dying thread ran the loader's worker loop, else `a child process the main
    started`."""
    loader = any(f.func == "_worker_loop" and "data/_utils/worker" in f.file for t in dump.threads for f in t.frames)
    return "a DataLoader worker" if loader else "a child process the main started"


def _is_process_bootstrap(thread: Thread) -> bool:
    """A stack run by multiprocessing's Process._bootstrap: a child process's main thread."""
    return any(
        f.func == "_bootstrap" and f.file.replace("\\", "/").endswith("multiprocessing/process.py")
        for f in thread.frames
    )


_CHAINED = re.compile(r"During handling of the above exception|The above exception was the direct cause")


# subprocess's word for a child that ended with a status (check=True, check_call, check_output)
_CHILD_STATUS = re.compile(r"CalledProcessError: Command (?P<command>.+) returned non-zero exit status \d+\.?$")


def _child_raised_first(stderr: str, line: str) -> str:
    """The exception line of a Python child the main ran, whose own traceback (through its script's or module's
    `<module>`) was printed before the main's failure on it: the child failed first. Either the main's
    CalledProcessError for its exit status names the child's script or module (`subprocess.run([sys.executable,
    "prep.py"], check=True)`: the eighteenth held-out set's e_subprocess_prep_fails; `python -m pkg.trial`: the
    thirty-third's hp_child_trial_cwd), or the child ran another program than the main's (the main then failed on
    what the child did not give it, a JSONDecodeError of its empty output: hp_child_pipe_hidden_float), told by
    a whole process's traceback, from runpy's `_run_module_as_main` (a script child printed so is a traceback
    the main could have printed of an exception it caught). The first child's, where several failed alike. ""
    otherwise."""
    printed = [t for t in read_output(stderr).tracebacks if t.on_own_line and not t.ignored]
    if len(printed) < 2 or printed[-1].chained:
        return ""
    said = _CHILD_STATUS.search(line)
    main_entry = _entry(printed[-1])
    for child in printed[:-1]:
        script = _entry(child)
        if not script or not child.exception:
            continue
        if said and (script in said["command"] or any(f"'{m}'" in said["command"] for m in _module_names(script))):
            return child.exception
        if not said and main_entry and script != main_entry and child.origin == "main" and _ran_as_module(child):
            return child.exception
    return ""


def _is_runpy(call) -> bool:
    return call.path == "<frozen runpy>" or call.path.replace("\\", "/").endswith("/runpy.py")


def _ran_as_module(traceback) -> bool:
    """A traceback from runpy's `_run_module_as_main` down: a whole process's (`python -m pkg.mod`), which a
    traceback a program printed of an exception it caught (traceback.print_exc at a module's top level, an
    optional import) never is."""
    calls = traceback.calls
    return bool(calls) and _is_runpy(calls[0]) and calls[0].function == "_run_module_as_main"


def _entry(traceback) -> str:
    """The file whose `<module>` a traceback starts in, below runpy's frames (`python -m pkg.mod`): the program a
    process ran; "" where it starts elsewhere (a thread's, a caught exception's, `<string>`)."""
    calls = [c for c in traceback.calls if not _is_runpy(c)]
    if not calls or calls[0].function != "<module>" or calls[0].path.startswith("<"):
        return ""
    return calls[0].path


def _module_names(path: str) -> list[str]:
    """The dotted names `python -m` may have run path by: `zoo.modes.trial`, `modes.trial`, `trial` (a package's
    `__main__.py` by its package)."""
    parts = path.replace("\\", "/").removesuffix(".py").split("/")
    if parts[-1] == "__main__":
        parts = parts[:-1]
    return [".".join(parts[i:]) for i in range(max(0, len(parts) - 4), len(parts)) if parts[i:]]


def _raised_from_elsewhere(stderr: str, line: str) -> str:
    """The exception line of the cause the failing exception was chained to, where that cause was raised
    outside the failing one's stack: its traceback's outermost frame is the program's and none of the failing
    traceback's frames (a thread's `run` that kept its exception for the main to re-raise `from` it; the twentieth
    held-out set's g_thread_font_resource). Python prints a cause raised in the same stack from the frame that caught it, one
    of the failing traceback's own. The nearest such cause in the chain: a thread's own chain ends in what it
    raised last. "" otherwise."""
    printed = [t for t in read_output(stderr).tracebacks if t.on_own_line and not t.ignored]
    if len(printed) < 2 or not printed[-1].chained or printed[-1].exception != line or GENERATOR_STOPPED.match(line):
        return ""
    failing = {(c.path, c.function) for c in printed[-1].calls}
    for at in range(len(printed) - 2, -1, -1):
        calls = printed[at].calls
        if printed[at].origin == "remote" or GENERATOR_STOPPED.match(printed[at].exception):
            # a process pool's worker's: exception_place's own rule; Python's conversion of a generator's
            # StopIteration, which the program caught and raised its own error from: all in the failing stack
            return ""
        if calls and (calls[0].path, calls[0].function) not in failing:
            # a library that rewrites the traceback it re-raises (omegaconf's format_and_raise) starts its cause
            # in its own frame: a cause the program kept starts in the program's
            return printed[at].exception if is_programs(calls[0].frame()) else ""
        if not printed[at].chained:
            return ""
    return ""


def _earlier_in_the_chain(stderr: str, line: str) -> Verdict | None:
    """The failure where an exception earlier in the failing one's chain is it: one a library's cleanup masked, or
    one raised outside the main's stack (a thread's, kept) that the main re-raised; None otherwise."""
    masked = _masked_in_cleanup(stderr, line)
    if masked:  # a library's cleanup raised while it handled the program's first error: that first
        told = f"{masked}; then, in the library's cleanup of it: {line}"
        return Verdict(Outcome.FAIL, "", told, sig_.mask(masked), by_message=True)
    masked = masked_by_own_cleanup(stderr, line)
    if masked:  # the program's own `__exit__`, close or `finally:` failed as its first error unwound: that first
        told = f"{masked}; then, in the program's cleanup as it unwound: {line}"
        return Verdict(Outcome.FAIL, "", told, sig_.mask(masked), by_message=True)
    cause = _raised_from_elsewhere(stderr, line)
    if cause:  # the main raised from an exception another thread (or an earlier call) raised and kept: that first
        told = f"{cause}; raised first, outside the main's stack: the main re-raised it as {line}"
        return Verdict(Outcome.FAIL, "", told, sig_.mask(cause), by_message=True)
    return None


# A library's cleanup as the earlier error unwound it: a `with` block's exit, a close. A library's own translation
# of an error while handling it (pandas' InvalidComparison into TypeError, torch.export's ConstraintViolationError
# into UserError) is its chosen report, raised in its own code, not in a cleanup: left as Python tells it last.
_CLEANUP = frozenset({"__exit__", "__aexit__", "close", "_close", "__del__"})
# what the operating system refused (`OSError: [Errno 28] No space left on device`, `PermissionError: [Errno 13]`)
_OS_ERROR = re.compile(r"^(?:\w+\.)*\w*(?:OSError|IOError|Error): \[Errno \d+\] ")


def _masked_in_cleanup(stderr: str, line: str) -> str:
    """The exception line of the error a library's own cleanup masked: the failing exception raised in that
    library's frames (an `__exit__`, a `finally`) while it handled an earlier one (Python's `During handling of the
    above exception`), that earlier one raised inside the same library call the failing stack passes through (the
    sixty-first held-out set's io_ckpt_enospc: torch.save's `OSError: [Errno 28] No space left on device`, then its
    zip writer's `unexpected pos` as the `with` block closed). "" otherwise: a program's own re-raise while handling
    (`except KeyError: raise ValueError(...)`) is raised in the program's frame, its own choice of error; the earlier
    one is what the operating system refused (an errno), the failing one raised in a cleanup (_CLEANUP)."""
    printed = [t for t in read_output(stderr).tracebacks if t.on_own_line and not t.ignored]
    if len(printed) < 2 or printed[-1].exception != line or not printed[-1].calls:
        return ""
    failing, first = printed[-1], printed[-2]
    between = stderr[first.at : failing.start]
    if (
        DURING_HANDLING not in between
        or not first.calls
        or not _OS_ERROR.match(first.exception)
        or failing.calls[-1].function not in _CLEANUP
        or is_programs(failing.calls[-1].frame())
    ):
        return ""
    outer = first.calls[0]  # where the earlier one was caught: a library's frame the failing stack passes through
    library = [(c.path, c.function) for c in failing.calls if not is_programs(c.frame())]
    return first.exception if not is_programs(outer.frame()) and (outer.path, outer.function) in library else ""


def _thread_failed_first(stderr: str) -> tuple[str, str] | None:
    """(`thread NAME` or `asyncio task NAME (coro)`, its exception line) of the first thread (or task) that died
    of an uncaught exception before the run failed otherwise: a thread's death is printed and the program goes
    on, failing later on what the thread never delivered (a KeyError for the value it never wrote), or not at
    all. None where no thread died, or where its exception is the last thing the run printed (then it is the
    failure anyway)."""
    died = read_output(stderr).thread_died
    if died is None:
        return None
    rest = stderr[died.end() :]
    end = rest.find(TRACEBACK_HEAD, 1)
    while end != -1 and _CHAINED.search(rest[max(0, end - 120) : end]):  # the thread's own chained exception
        end = rest.find(TRACEBACK_HEAD, end + 1)
    exception = Output(rest if end == -1 else rest[:end]).traceback_exception
    while not exception and end != -1:  # two threads that died at once interleave: read on to an exception line
        end = rest.find(TRACEBACK_HEAD, end + 1)
        exception = Output(rest if end == -1 else rest[:end]).traceback_exception
    if not exception:
        return None
    return thread_named(died), exception


def _feeder_failed(stderr: str) -> str:
    """`what it could not pickle: EXCEPTION` where a multiprocessing queue's feeder thread printed its failure to
    pickle an item put on the queue (queues.py `_feed`: the item is dropped, no one raises, the reader waits for
    ever: the seventieth held-out set's pk_hang_queue_feeder_lock, a lock in the item; a DataLoader worker's
    sample it cannot send back); "" where none did."""
    for printed in read_output(stderr).tracebacks:
        feeding = any(c.function == "_feed" and c.path.replace("\\", "/").endswith(_QUEUES) for c in printed.calls)
        if feeding and printed.exception:
            return f"what it could not pickle: {printed.exception}"
    return ""


_QUEUES = "multiprocessing/queues.py"


# A DataLoader worker's own last words (DataLoader.cpp): unlabelled, whichever rank's worker it was.
_WORKER_WORDS = re.compile(r"^ERROR: Unexpected [a-z ]+ encountered in worker\..*$", re.M)
# torch's SIGCHLD handler's words, unlabelled: raised after the rank's own exception, in an atexit callback
# that Python ignored (torch 2.13 under torchrun: a worker SIGKILLed, its rank saying ConnectionResetError).
_WORKER_KILLED = re.compile(r"^RuntimeError: DataLoader worker \(pid \d+\) is killed by signal: .*$", re.M)


def _with_last_words(dump: str, stderr: str) -> str:
    """A rank's fatal-signal dump with what that process printed just before it: C++'s `terminate called
    ... what(): ...` precedes faulthandler's `Fatal Python error: Aborted` (no other dump in between; torch's
    own backtrace of every thread may be, 9.7 kB of it for 6 threads on an H200 box's torch 2.11)."""
    at = stderr.find(dump[:400]) if dump else -1
    if at <= 0:
        return dump
    before = ranks_.TORCH_BACKTRACE_LINE.sub("", stderr[max(0, at - 256_000) : at])[-8000:]
    start = before.rfind("terminate called after throwing")
    if start == -1 or "Fatal Python error:" in before[start:]:
        return _with_libc_words(before, dump)
    return before[start:] + dump


def _with_libc_words(before: str, dump: str) -> str:
    """The dump with glibc's words as it aborted (`free(): double free detected in tcache 2`), where they are
    the last that process printed before torch's backtrace and the dump."""
    said = list(LIBC_ABORT.finditer(before))
    if not said or before[said[-1].end() :].replace("<omitting python frames>", "").strip():
        return dump
    return f"{said[-1].group(0)}\n{dump}"


# An ExceptionGroup's traceback (3.11): every line indented, its exceptions after `  | `.
_EXCEPTION_GROUP = re.compile(r"^\s*\| \S", re.M)


def _cut_off(text: str) -> bool:
    """A traceback that no exception line ends: its printing was cut short. Seen under torchrun when a
    rank's loader worker segfaults (3 runs in 36 alone, 6 at a time): CPython prints `lost sys.stderr`
    and the rank's `[rank1]:` traceback stops mid-stack, before its exception line (or, once in a CI run,
    none of it is printed at all)."""
    return (
        TRACEBACK_HEAD in text and not read_output(text).traceback_exception and not sig_.search(_EXCEPTION_GROUP, text)
    )


def _from_rank(
    root: ranks_.RankFailure, returncode: int | None, report: dict, stderr: str, recorded: Sequence[ranks_.Recorded]
) -> Verdict:
    """A distributed cell's verdict, told from the rank that failed first: its signal (rank_crash), else
    its own output classified as a single process's would be (fail, worker_crash inside it, ...). A rank
    whose loader lost a worker may say only EOFError or ConnectionResetError, or have its traceback cut
    short: the worker's own unlabelled line is its too, and so is torch's unlabelled word of its signal."""
    if root.ended_early:  # the victim's broken connection is its consequence: the rank that ended is the verdict
        return Verdict(Outcome.FAIL, "", root.ended_early, ranks_.RANK_ENDED_EARLY, root.rank, root.text)
    if root.alone_at_barrier:  # the rank at the barrier its peers never called is the verdict, at that barrier
        return Verdict(Outcome.FAIL, "", root.alone_at_barrier, sig_.BARRIER_UNMATCHED, root.rank, root.text)
    if root.signal:
        last_words = read_output(_with_last_words(root.text, stderr))
        told = _told_abort(root.signal, last_words)
        if told:
            placed = told.cause.placed  # signed by its place, as _crash signs it
            return Verdict(Outcome.RANK_CRASH, root.signal, told.line, told.signature, root.rank, root.text, placed)
        who = "" if root.rank is None else f"rank {root.rank} "
        printed = "" if last_words.fatal_line else last_words.traceback_exception
        if printed:  # its own exception, printed before the signal ended it (ranks._printed_then_killed)
            line = f"{printed}; then killed by {root.signal}"
            return Verdict(Outcome.RANK_CRASH, root.signal, line, sig_.mask(printed), root.rank, root.text, True)
        line = last_words.fatal_line or f"{who}killed by {root.signal}"
        return Verdict(Outcome.RANK_CRASH, root.signal, line, sig_.KILLED_BY_SIGNAL, root.rank, root.text)
    if root.code and not root.text.strip():
        # a rank that ended itself with a status (`sys.exit(3)`), told only by its launcher: its words are the
        # launcher's, the status its own (under inject, its record places it: exit_record.rank_place)
        said = sig_.search(ranks_.SPAWN_EXITED, stderr)
        line = said.group(0) if said else f"rank {root.rank} exited with exit code {root.code}"
        # an option parser's refusal of the rank's command line (argparse exits 2 after its usage): its own words
        refused = usage_error(ranks_.without_launcher_report(stderr)) if root.code == 2 else ""
        line = refused or line
        return Verdict(Outcome.FAIL, "", line, sig_.mask(line), root.rank, by_message=True)
    # its own words lost: cut short, or none at all (only the launcher's entry: `exitcode: 1`)
    text, words_lost = root.text, not root.text.strip() or _cut_off(root.text)
    if "data/dataloader.py" in text or words_lost:
        text += "".join(f"\n{m.group(0)}" for m in sig_.finditer(_WORKER_WORDS, stderr))
    killed_word = sig_.search(_WORKER_KILLED, stderr)
    if killed_word and sig_.lost_a_worker(text):
        # a worker gone without a word: the signal it died by, where torch said it. The first such word:
        # a victim's, after the launcher's kill, would come later (`killed by signal: Terminated`).
        text += f"\n{killed_word.group(0)}"
    verdict = _from_output(returncode, text, "", text, report)
    if verdict.signature == sig_.WORKER_LOST or (words_lost and verdict.outcome is Outcome.FAIL):
        mine = [r for r in recorded if (r.pid == root.pid if root.pid is not None else r.rank == root.rank)]
        ranks = {r.pid for r in recorded}  # under Lightning's ddp rank 0 is the parent of the other ranks
        killed = [child for r in mine for child in r.killed_children if child[0] not in ranks]
        by_recorder = _told_by_recorder(verdict, killed, root.rank, root.text)
        if by_recorder:  # the recorder saw the worker's signal that the rank's own words lack
            return by_recorder
    return dataclasses.replace(verdict, rank=root.rank, told=root.text)


def _told_by_recorder(
    verdict: Verdict, killed: Sequence[tuple], rank: int | None = None, told: str = ""
) -> Verdict | None:
    """A lost worker's verdict as a worker_crash by the signal that killed it, where the recorder saw one of
    the failing process's children (pid, signal) killed at its end (crashmatrix.incell.rank_report); None
    where it saw none."""
    # a worker the loader's own shutdown terminated (SIGTERM) is no cause, where another died otherwise
    killed = sorted(killed, key=lambda child: (child[1] in ("SIGTERM", "SIGINT"), child[0]))
    if not killed:
        return None
    pid, sig = killed[0]
    error = f"{verdict.error}; its DataLoader worker (pid {pid}) was killed by {sig}"
    return Verdict(Outcome.WORKER_CRASH, sig, error, sig_.WORKER_SIGNAL, rank, told)


def tells_a_failure(text: str) -> bool:
    """Whether the text tells a failure the rules can read (crashmatrix diagnose: a log with none is "no failure
    found"): a known cause, a traceback, an exception, a fatal error, Hydra's or CUDA's own words, an option
    parser's refusal of the command line, a rank's."""
    out = read_output(ranks_.without_role_prefix(plain(text)))
    if out.cause or out.fatal_line or out.cuda_line or out.hydra_error or usage_error(out.text) or out.died_by:
        return True
    if out.tracebacks and all(t.ignored for t in out.tracebacks):
        # every one after Python's `Exception ignored in:` (a __del__ at exit): Python went on, unless a rank
        # or a signal says otherwise
        failure = out.root_failure
        return failure is not None and (failure.rank is not None or bool(failure.signal))
    if out.tracebacks or out.root_failure is not None:
        return True
    return any(not WARNING.match(line) for line in out.exception_lines)


# crashmatrix's own words in a cell's stderr under inject (incell/injection.py's warn: its metrics not written,
# a knob not applied), never the program's: a set's program that lowered its own open-files limit had its error
# told by the line saying crashmatrix's report could not be written either (`... Too many open files`)
INJECT_PREFIX = "crashmatrix inject: "
_INJECT_SAID = re.compile(rf"^(?:\[rank\d+\]: ?)?{INJECT_PREFIX}.*(?:\n|$)", re.M)


def _without_exit_cleanup(stderr: str) -> str:
    """stderr without the tracebacks Python went on from after an earlier one: multiprocessing's exit cleanup
    reporting a finalizer's error (the seventy-ninth set's program ran out of files, failed, and the cleanup then
    could not remove its temporary folder either: `OSError: [Errno 24] Too many open files: '/tmp/pymp-...'`), and
    an `Exception ignored in atexit callback` (the hundredth set's: torch._dynamo's exit hook could not import
    tabulate under the same limit). Each became the error line of a failure printed before it."""
    if "_run_finalizers" not in stderr and "_exit_function" not in stderr and "Exception ignored" not in stderr:
        return stderr
    printed = read_output(stderr).tracebacks
    went_on = [t.by_exit_cleanup or t.ignored for t in printed]
    cut = [
        t
        for i, t in enumerate(printed)
        if went_on[i] and not all(went_on[:i]) and (t.by_exit_cleanup or not _tells_a_new_cause(t, printed[:i]))
    ]
    for t in reversed(cut):
        if t.exception_at < 0:
            continue
        said = t.lines[t.exception_at]
        end = stderr.find("\n", stderr.find(said, t.at) + len(said))
        stderr = stderr[: t.start] + (stderr[end + 1 :] if end >= 0 else "")
    return stderr


def _cause_of(traceback) -> str:
    said = traceback.lines[traceback.exception_at] if traceback.exception_at >= 0 else ""
    found = read_output(said).cause if said else None
    return found.cause.name if found is not None else ""


def _tells_a_new_cause(ignored, before) -> bool:
    """Whether a report Python went on from names a known cause no earlier traceback named: torch's `is killed by
    signal` from an atexit callback after a rank's ConnectionResetError is the cause, found late; a hook that ran
    out of files after the program had is the same cause again."""
    cause = _cause_of(ignored)
    return bool(cause) and all(_cause_of(t) != cause for t in before)


# A DataLoader worker ended by what ends a timed-out cell (SIGTERM to its process group, then SIGKILL), as its main
# reports it: the ninety-sixth held-out set's hang, whose log diagnose signed `worker_signal` where its run said the hang
_ENDED_BY_THE_KILL = re.compile(r"is killed by signal: (?:Terminated|Killed)\b")


def _timed_out(stderr: str, text: str, timeout_s: float | None) -> Verdict:
    """A cell crashmatrix ended at its timeout: what it last said, or what it waited for that never came."""
    tail = exception_line(stderr)
    when = f"after {timeout_s:g} s" if timeout_s else ""
    found = read_output(text).cause
    if found is not None and found.cause.name == sig_.WORKER_SIGNAL and _ENDED_BY_THE_KILL.search(found.line):
        found = None  # the timeout's own kill of the process group, reported by the main: no cause of the hang
    first, dropped = _thread_failed_first(stderr), _feeder_failed(stderr)
    if first is not None:  # what the program waits for, a thread died first: a lock it held, a value it owed
        said = f"timed out {when}".strip() + f", after {first[0]} died: {first[1]}"
    elif dropped:  # ... or never came: a queue's feeder thread dropped it
        said = f"timed out {when}".strip() + f", after a multiprocessing queue's feeder thread dropped {dropped}"
    else:
        said = f"timed out {when}".strip() + (f"; last line: {tail}" if tail else "")
    return Verdict(Outcome.TIMEOUT, "", said, found.signature if found else sig_.HANG)


def classify(
    returncode: int | None,
    *,
    timed_out: bool = False,
    stderr: str = "",
    stdout: str = "",
    report: dict | None = None,
    timeout_s: float | None = None,
    recorded: Sequence[ranks_.Recorded] = (),
    exit_recorded: bool = False,
) -> Verdict:
    """returncode as subprocess gives it: negative for death by a signal. recorded: what the in-cell
    recorder kept of a distributed cell's ranks (crashmatrix.incell.rank_report). exit_recorded: the in-cell
    recorder ran (inject), whose report, written at exit, tells a death at exit: without it, one mid-run."""
    stderr, stdout = plain(stderr), plain(stdout)  # no escape code in error or signature, none in a pattern's way
    stderr = ranks_.without_role_prefix(stderr)  # torchrun --tee's `[default1]:`: the ranks' labels read as plain
    stderr = _without_exit_cleanup(_INJECT_SAID.sub("", stderr) if INJECT_PREFIX in stderr else stderr)
    text = stderr + ("\n" + stdout if stdout else "")
    report = report or {}

    if timed_out:
        return _timed_out(stderr, text, timeout_s)

    status = report.get("status")
    if status == "skip":
        return Verdict(Outcome.SKIP, "", report.get("reason", ""))
    if status == "nan" and (returncode is None or returncode >= 0):
        return Verdict(Outcome.NAN, "", report.get("reason", "non-finite value"), sig_.NON_FINITE)

    if returncode is not None and returncode < 0:
        sig = signal_name(-returncode)
        raised = None if exit_recorded else _raised_before_its_death(sig, stderr, stdout, text, report)
        return raised or _crash(sig, read_output(stderr), read_output(text), f"killed by {sig}")

    if returncode == 0:
        if status == "error":
            reason = report.get("reason", "the probe reported an error")
            return Verdict(Outcome.FAIL, "", reason, sig_.mask(reason), by_message=True)
        return Verdict(Outcome.PASS)

    if ranks_.is_distributed(stderr, recorded):
        root = ranks_.root_failure(stderr, recorded)
        if root is not None:
            return _from_rank(root, returncode, report, stderr, recorded)

    if returncode is not None and returncode > 128:
        # A shell or launcher in between reports a signalled child as 128+N.
        sig = signal_name(returncode - 128)
        fatal = read_output(stderr).fatal_line
        for text_name, name in sig_.SIGNAL_TEXT.items():
            if name == sig and (text_name in stderr or fatal):
                return _crash(sig, read_output(stderr), read_output(text), f"exit status {returncode}: {text_name}")

    return _from_main_output(returncode, stderr, stdout, text, report)


def _from_main_output(returncode: int | None, stderr: str, stdout: str, text: str, report: dict) -> Verdict:
    """_from_output of the cell's main process. Where its own loader lost a worker and it said only
    ConnectionResetError (a SIGKILLed worker whose batch it was unpickling): the signal the recorder saw."""
    verdict = _from_output(returncode, stderr, stdout, text, report)
    if verdict.signature == sig_.WORKER_LOST:
        return _told_by_recorder(verdict, ranks_.killed_of(report.get("killed_children"))) or verdict
    return verdict
