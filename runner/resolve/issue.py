"""ISSUE.md of a repro bundle: one failure, told as an upstream tracker asks (PyTorch's bug template: what
happened, a minimal reproduction, the environment), in the order a maintainer reads it.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from crashmatrix.incell.own_native import NATIVE_OWN
from crashmatrix.machine.fingerprint import SUMMARY_FIELDS
from crashmatrix.outcome import Outcome
from crashmatrix.plain_text import plain
from crashmatrix.resolve import nonfinite
from crashmatrix.resolve.apply import Apply
from crashmatrix.resolve.configs import Config
from crashmatrix.resolve.culprit import Culprit, culprit
from crashmatrix.resolve.failures import Failure, Findings
from crashmatrix.resolve.repro import Bundle, ran_in, result_of, stacks_of
from crashmatrix.rundir.cell_logs import read_ends, read_report
from crashmatrix.rundir.finished_run import FinishedRun
from crashmatrix.verdict import anomaly, forensics, kept_stacks, peers, ranks, stacks, sync_rerun, uncaught
from crashmatrix.verdict.exception_place import exception_place, failing_output
from crashmatrix.verdict.gpu_logs import KERNEL_ASSERT, cudnn_setup_failure
from crashmatrix.verdict.remedies import remedy_told
from crashmatrix.verdict.signature import AT_EXIT, C_RUNTIME, WORKER_EXITED, WORKER_LOST, placed_at_exit

_TIMED_OUT = Outcome.TIMEOUT.value

TELLING_LINES = 40  # of the failing run's stderr at most
_FATAL = re.compile(r"^(Fatal Python error: |ERROR: Unexpected |.*DataLoader worker \(pid)")
# faulthandler's list of every extension module imported (a hundred and more): nothing a maintainer needs
_EXTENSION_MODULES = re.compile(r"^Extension modules: ")

_WHAT = {
    Outcome.CRASH.value: "The program's main process was killed by {signal}.",
    Outcome.WORKER_CRASH.value: "A child process of the program (a DataLoader worker or a spawned process) {died}, "
    "and the main process reported it and stopped.",
    Outcome.RANK_CRASH.value: "Rank {rank} of the distributed job died by {signal} first; the other ranks' "
    "failures and the launcher's report followed from it.",
    Outcome.FAIL.value: "The program stopped with an error (exit status {exit_code}).",
    Outcome.CUDA_ERROR.value: "The program stopped with a CUDA runtime error.",
    Outcome.OOM.value: "The program ran out of memory.",
    Outcome.TIMEOUT.value: "The program did not finish within {timeout} s: it hung, and was stopped.",
    Outcome.NAN.value: "The loss became non-finite (nan or inf).",
}


@dataclass(frozen=True)
class Told:
    """What ISSUE.md tells beside the bundle itself."""

    failures: Sequence[Failure]  # the conjunctions named for this kind
    findings: Findings
    passing: Sequence[Config]  # the passing configurations nearest the failing one
    apply: Apply  # the failing configuration, set without crashmatrix
    matrix_path: str  # the bundle's matrix.yaml, absolute; "" where none was written
    has_stacks: bool


def issue_text(run: FinishedRun, bundle: Bundle, told: Told) -> str:
    kind, row = bundle.kind, bundle.row
    head = " ".join(part for part in (kind.outcome, kind.signal) if part)
    title = f"{head}: {row['error']}" if row.get("error") else kind.label(None)
    stderr, rank = own_output(run, row)
    where = str(row.get("where") or "") or _place(stderr, kind.outcome)
    launched = _launched_output(run, row)  # a CUDA error's own traceback: where its kernel was launched
    if launched:
        stderr = launched
    kept = stacks_of(run, row)
    busy, openmp = stacks.busy_mark(kept), kept_stacks.child_in_openmp(kept)
    native = _own_native(run, row)
    addressee, whose = whose_fix(
        kind, stderr, where, row.get("error") or "", _packages(run, bundle), busy, native, openmp
    )
    parts = [
        f"# {title}\n",
        addressee,
        _what_happened(run, bundle),
        _conditions(run, bundle, told),
    ]
    source = "the failing run's stderr" + (" before crashmatrix stopped it" if kind.outcome == _TIMED_OUT else "")
    if rank is not None:
        source = f"rank {rank}'s own traceback (the launcher's report left out)"
    if launched:
        source = f"the {sync_rerun.MARK}'s stderr (CUDA_LAUNCH_BLOCKING=1: raised where the kernel was launched)"
    parts.append(_telling(stderr, source))
    parts.append(f"## Where\n\n{where}\n" if where else "## Where\n\nNot recorded for this failure.\n")
    parts[-1] += _forward_call(stderr, str(row.get("error") or ""))
    if told.has_stacks:
        parts.append("## Stacks\n\nThe Python stacks of the failing run are in stacks.txt beside this file.\n")
    parts += [_reproduce(run, bundle, told), _environment(run, whose)]
    return "\n".join(parts)


def whose_fix(
    kind,
    stderr: str,
    where: str,
    error: str,
    packages: dict,
    busy: str = "",
    native: Sequence[str] = (),
    openmp: str = "",
) -> tuple[str, Culprit | None]:
    """(the paragraph saying whose fix a failure is, the library its stack points to): ISSUE.md's and
    `crashmatrix diagnose`'s, one rule. kind: its outcome, signal and signature (a FailureKind, or any
    object with those three). busy: a hang's main process's mark in stacks.txt, where it ran as it was caught.
    native: the program's own shared objects the process had loaded at its exit (incell/own_native.py). openmp: a hang's
    forked process that waited inside GNU OpenMP (kept_stacks.child_in_openmp)."""
    # A rank that ended early is the program's own sharding: the peers' broken links in torch are its echo.
    by_signal = bool(kind.signal)
    # The process's memory ran out where it was last asked for, not where it is held: the program's to look at.
    # Not /dev/shm filling up (shm_full): a machine's or container's size, where torch's tracker has the advice.
    oom = kind.outcome == Outcome.OOM.value and kind.signature != "shm_full"
    # a known class, a collective timeout told by its peers too: the program's
    known = remedy_told(kind.signature, kind.signal, error)
    whose = None if known or oom else culprit(stderr, where, packages, error, by_signal)
    setup = cudnn_setup_failure(where)  # only a synchronous rerun's cuDNN log tells it
    if oom:
        return _out_of_memory(where), whose
    if kind.outcome == Outcome.TIMEOUT.value and not known:
        return _hung(where, busy) + _openmp_after_fork(openmp), None
    if placed_at_exit(where) and not known:
        return _at_exit(whose, where, kind.signal, native), whose
    raised = not by_signal and bool(_EXCEPTION_LINE.match(error))
    return (_cudnn_setup(setup) if setup else _addressed(whose, where, known, raised)), whose


# an exception's line (`RuntimeError: index 7 is out of bounds`), not an exit status's words
_EXCEPTION_LINE = re.compile(r"^(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception)\b")


def _own_native(run: FinishedRun, row: dict) -> list[str]:
    """The program's own shared objects its main process had loaded at exit, as its report kept them (inject)."""
    report = read_report(os.path.join(run.directory, str(row.get("log_dir") or ""), "report.json")) or {}
    found = report.get(NATIVE_OWN) if isinstance(report, dict) else None
    return [str(p) for p in found] if isinstance(found, list) else []


def _at_exit(whose: Culprit | None, where: str, signal: str, own_native: Sequence[str] = ()) -> str:
    """A death at exit: in Python code the interpreter ran as it shut down (a `__del__`, an exit handler), in the
    library the kernel's log named, or in native code no stack names. Not a line of the program's main code: what
    it left running or alive at exit is what that cleanup met."""
    left = (
        "What the program left running or alive at its end is what such cleanup meets (a profiler started and "
        "never stopped, a process group never destroyed, a thread or worker still running, an object never "
        "closed): stopping or closing it before the end is the program's way round it"
    )
    places = where.split("; ")[:-1]
    python = [p for p in places if _PYTHON_PLACE.match(p)]
    if python:
        return (
            f"The program's to look at first: the process died by {signal or 'a signal'} at exit, in {python[-1]}, "
            "Python code the interpreter ran as it shut down (an object's `__del__`, an exit handler), after the "
            f"program's main code had finished. {left}.\n"
        )
    if whose is not None:
        return (
            _addressed(whose, "; ".join(places)).rstrip("\n")
            + f" It died at exit, in that code's cleanup as the process ended. {left}.\n"
        )
    if own_native and places and all(C_RUNTIME.match(p) for p in places):  # libc runs for whoever called it
        own = ", ".join(f"{os.path.basename(p)} ({os.path.dirname(p)})" for p in own_native)
        return (
            f"The program's to look at first: the process died by {signal or 'a signal'} at exit, after the "
            f"program's code had finished, in the C library ({'; '.join(places)}), which runs for "
            f"whoever called it; the process had loaded native code of the program's own, outside any installed "
            f"package: {own}. Its exit handlers and destructors run then: look there first (a buffer freed before an "
            "exit handler uses it); a core dump's stack (`coredumpctl gdb`, then `bt`) names the caller.\n"
        )
    native = "; ".join(places)
    named = f" but {native}, which no installed package holds" if native else ""
    if native:  # the C runtime, or a library no installed package holds: what called it is the one to name
        finding = "a core dump's stack (`coredumpctl gdb`, then `bt`) names the library that called it"
    elif signal == "SIGABRT":  # an abort is no fault the kernel logs
        finding = "a core dump's stack (`coredumpctl gdb`, then `bt`) names the library that aborted"
    else:
        finding = (
            "the kernel's log (`dmesg`: `segfault at ... in <library>`) or a core dump's stack (`coredumpctl gdb`, "
            "then `bt`) names the library"
        )
    return (
        f"No stack names the library{named}: the process died by {signal or 'a signal'} at exit, after the "
        "program's code had finished, in the native code that cleans up as the process ends (libraries' "
        f"destructors), where faulthandler prints nothing. {left}; {finding}, whose tracker this is for.\n"
    )


# a frame of Python code in `where`: `r1.py:10 in __del__`, `…/site-packages/x/y.py:3 in close`
_PYTHON_PLACE = re.compile(r"^\S+\.py:\d+ in \S+$")


def _openmp_after_fork(process: str) -> str:
    """The GNU OpenMP fork problem, where a hang's forked process waited in libgomp; "" where none did."""
    if not process:
        return ""
    return (
        f"Its forked process {process} waited inside GNU OpenMP (libgomp) under a torch op: the parent had run "
        "OpenMP's threads before it forked, and libgomp's pool does not survive a fork, so the child's first parallel "
        "op waits for threads it does not have (pytorch/pytorch#17199). The DataLoader gives each worker one thread "
        "for this reason: keep it (no torch.set_num_threads above 1 in a worker_init_fn), or start the workers or the "
        "child by spawn or forkserver (the start_method axis).\n"
    )


def _hung(where: str, busy: str = "") -> str:
    """A hang: its stacks end in a wait (a loader's queue, a collective, a lock), inside a library as often as
    not; where the waiting showed is not whose bug it is. What never came is the program's to look for. busy:
    stacks.txt's mark of its main process where it was running as it was caught: a loop whose end never came
    (its line moved from sample to sample), one call that never returned (it stayed), or either (one sample)."""
    waited = f" (its processes were at {where})" if where else ""
    running = f"The program's to look at first: it never went on{waited}. Its main process was running, not waiting, "
    if busy == stacks.LOOPED:
        return (
            running + "as it was caught, on other lines each time: a loop there that never ends. Look at what "
            "should end it (a condition never met, a value that never changes, the same work retried).\n"
        )
    if busy == stacks.STAYED:
        return (
            running + "as it was caught, on the same line each time: one call that did not return within the time "
            "limit (a long computation, or a loop inside what it called). Look at what that call is given, and "
            "whether it finishes with more time.\n"
        )
    if busy:
        return running + "as it was caught: a loop that never ends, or work slower than the time limit.\n"
    return (
        f"The program's to look at first: it never went on{waited}. A wait inside a library (a DataLoader's queue, "
        "a collective, a lock) is where the waiting showed, not that library's bug: look at what the program's code "
        "there waits for (a worker, a peer rank, a thread, a child) and why it never came. A process named at the "
        "program's call under a library's frame, or at another line of one function in each repeat, was busy "
        "there: a loop that never ends.\n"
    )


def _place(stderr: str, outcome: str) -> str:
    """A row without a place (written before every exception had one): its exception's, read as the run
    would have read it (a distributed job's from its failing rank's own traceback)."""
    if outcome in (Outcome.TIMEOUT.value, Outcome.CRASH.value, Outcome.RANK_CRASH.value):
        return ""  # their places need what only the run had: stacks, torch's backtrace, the kernel log
    return exception_place(failing_output(stderr), oom=outcome == Outcome.OOM.value)


def own_output(run: FinishedRun, row: dict) -> tuple[str, int | None]:
    """The failing run's stderr; of a distributed job whose rank raised, that rank's own traceback only.

    The ranks share the cell's stderr, after the victims' broken connections comes the launcher's own
    exception (torchrun's ChildFailedError, mp.spawn's ProcessRaisedException), and its frames are torch's:
    telling lines and the library to blame come from the failing rank's traceback (crashmatrix.verdict.ranks
    splits the output by rank), never the launcher's. A rank's death by signal keeps the whole stderr, where
    its native frames and faulthandler's dump are found by the faulting thread. (text, the rank it is of)."""
    cell_dir = os.path.join(run.directory, str(row.get("log_dir", "")))
    # A timeout's: what it wrote before crashmatrix's kill. Its answers to the kill (torch's `DataLoader
    # worker ... killed by signal: Terminated`, spawn's ProcessExitedException) are not the hang.
    upto = None
    if row.get("outcome") == _TIMED_OUT:
        upto = result_of(run, row).get("stderr_at_kill")
    path = os.path.join(cell_dir, "stderr.log")
    stderr = plain(read_ends(path, upto if isinstance(upto, int) else None))
    if upto is None:  # as the run read it: with the exception the program reported its own way (uncaught.txt)
        stderr = uncaught.beside(path, stderr)
    if str(row.get("rank") or "") == "" or not ranks.is_distributed(stderr):
        return stderr, None
    root = ranks.root_failure(stderr, ranks.recorded_ranks(cell_dir))
    if root is None or root.signal or "Traceback (most recent call last)" not in root.text:
        return stderr, None
    return root.text, root.rank


def _launched_output(run: FinishedRun, row: dict) -> str:
    """The stderr of the synchronous rerun that gave a CUDA error's `where`; "" for any other row. The first
    run raised where the host next waited, in a later op or another library (transformers' next line after
    the embedding that asserted): its traceback names neither the failure's place nor whose code it was."""
    if not str(row.get("where") or "").endswith(f", {sync_rerun.MARK}"):
        return ""
    path = os.path.join(run.directory, str(row.get("log_dir", "")), sync_rerun.SYNC_DIR, "stderr.log")
    return plain(read_ends(path, None)) if os.path.isfile(path) else ""


def _packages(run: FinishedRun, bundle: Bundle) -> dict:
    """The failing interpreter's {distribution: version}, as env.json lists them."""
    interpreters = run.fingerprint.get("interpreters") or {}
    facts = interpreters.get(bundle.interpreter)
    if facts is None and len(interpreters) == 1:
        facts = next(iter(interpreters.values()))
    return dict((facts or {}).get("packages") or {}) if isinstance(facts, dict) else {}


def _out_of_memory(where: str) -> str:
    """An out-of-memory error's addressee: the program. Its stack shows the allocation that found no memory
    left (often in torch's code: a Linear's output), not what holds the memory."""
    shown = (
        f"Memory ran out at the allocation the stack shows ({where}): where it was last asked for, not what holds it."
        if where
        else "Memory ran out."
    )
    return (
        f"{shown} Look first at what the program keeps (outputs kept across batches, a growing cache, the batch "
        "size), then at what it calls.\n"
    )


def _cudnn_setup(failure: str) -> str:
    """cuDNN that could not make its handle, where its synchronous rerun failed there too: no kernel had failed
    before it (it would have raised at its own launch). On an H200 that was a GPU whose memory another process
    held, while torch's own cache still had room: no "CUDA out of memory", only cuDNN's status."""
    return (
        f"cuDNN could not set itself up (`{failure}`): its own CUDA call failed before any of its work ran, and "
        "the synchronous rerun found no earlier CUDA error. cuDNN allocates for its handle outside torch's "
        'allocator: a GPU whose memory is taken fails it even while torch has room (no "CUDA out of memory"; '
        "reproduced on an H200 with another process holding the memory). Look first at what else holds "
        "the GPU (`nvidia-smi --query-compute-apps=pid,used_memory --format=csv` while the job runs) and at what "
        "torch's own cache keeps reserved (`torch.cuda.memory_reserved()`), then at the program.\n"
    )


def _in_the_standard_library(place: str, where: str = "") -> bool:
    """Whether a place's first frame is the standard library's (`urllib/request.py:1351 in do_open`), as
    exception_place names it: by its path below the standard library's folder. A module at that folder's top
    (`dataclasses.py:1024 in _process_class`, `socket.py:274 in __getstate__`) is told apart from a program's own
    file of that name only by a frame of the program's after it in `where`."""
    top = place.split("/")[0].split(":")[0].removesuffix(".py")
    if top not in sys.stdlib_module_names:
        return False
    return "/" in place.split(" ")[0] or where.split("; ")[0].strip() == place and "; " in where


def _ended(place: str) -> str:
    """` (it ended in app/train.py:9 in f)`; a worker that died without a word is placed where the main process
    heard of it (forensics), which is no place it ended in: ` (the main process heard of it at ...)`."""
    if not place:
        return ""
    return f" ({place})" if place.startswith("the main process heard of it") else f" (it ended in {place})"


# A config file's place (verdict/config_place.py): `conf/experiment/wide.yaml:3 in defaults.model`
_CONFIG_PLACE = re.compile(r"^\S+\.ya?ml:\d+ in \S")
# A native frame as `where` gives it (forensics): `libcodec.so (decode_header+0xc)`, `libc.so.6 (+0x156219)`
_NATIVE_FRAME = re.compile(r"^\S+\.so(?:\.\d+)* \(.*\)$")


def _no_library(where: str, known: str, raised: bool = False) -> str:
    """_addressed's paragraph where the stack points to no library: a known kind's fix, a Hydra refusal of the
    command or of a config, Triton's launcher, the standard library, or none at all."""
    # the first frame of the place: an out-of-memory error's starts with its op (`empty; train.py:39 in f`)
    frames = [p.strip() for p in where.split(";") if " in " in p]
    first = where.split(";")[0].strip()
    place = frames[0] if frames else first
    if frames and _NATIVE_FRAME.match(first):  # died in native code the program's line called
        place = f"{first}, called at {frames[0]}"
    if known:
        return (
            "A failure of a known kind" + _ended(place) + f", whose fix is the program's, not a library's: {known}.\n"
        )
    if first.startswith("override "):  # verdict/config_place.py: an override the app was started with
        against = f", against {frames[0]}" if frames else ""
        return (
            f"The command's override to fix, not a library's: Hydra refused `{first.removeprefix('override ')}`"
            f"{against} (the message says why).\n"
        )
    if _CONFIG_PLACE.match(place):  # verdict/config_place.py: Hydra refused what a config file of the app says
        return (
            f"The app's configuration to fix, not a library's: Hydra refused what {place} says (the message "
            "says why). A config the user wrote is the user's; HYDRA_FULL_ERROR=1 shows Hydra's whole stack.\n"
        )
    if place.startswith("triton/"):  # culprit.py: Triton's launcher reported the fault of the program's kernel
        return (
            "The failing stack shows no installed library's code but Triton's launcher, which reported the fault "
            f"of a kernel the program launched ({frames[-1]}): look first at that kernel, then at what the "
            "program passes it.\n"
        )
    if _in_the_standard_library(place, where):  # a package may stand between (torch.hub over urllib): not absent
        return (
            "The error was raised in Python's standard library"
            + _ended(place)
            + ", which reports what it was given or met (a file, a connection, a value): no package's tracker's. "
            "Look first at the program's own code, then at what it calls.\n"
        )
    if raised and frames and place == frames[0]:
        # torch's C++ checks raise from the program's own line (no Python frame of torch's below it): a library's
        # frames further out (Lightning's loop, autograd's engine calling a hook) are not where it was raised
        return (
            f"The program's to fix: the error was raised at its own line {place}, by its own code or by compiled "
            "code that line called (a check in torch's C++, in numpy's C), with no installed library's Python frame "
            "below it: look at what that line passes.\n"
        )
    return (
        "The failing stack shows no installed library's code"
        + _ended(place)
        + ": look first at the program's own code, then at what it calls.\n"
    )


def _addressed(whose: Culprit | None, where: str, known: str = "", raised: bool = False) -> str:
    """Whose bug the stack points to: the tracker this report is for. known: what fixes a failure of a known
    class (verdict/remedies.py), which is the program's to do whatever code raised it (torch.load refusing a
    checkpoint raises in torch by design). raised: the failure is an exception, not a death by signal or a status."""
    if whose is None:
        return _no_library(where, known, raised)
    memory = _programs_memory(whose)
    if memory:
        return memory
    if whose.vendored:
        called = f", called at {where.split(';', 1)[1].strip()}" if ";" in where else ""
        return (
            f"Whose bug this is, the evidence does not decide: the thread died in {whose.distribution}'s native code "
            f"({whose.evidence}{called}), a third-party library the project keeps in its own tree "
            f"({whose.vendored}/), neither the program's own code nor an installed package with a version and a "
            "tracker. A crash on valid input is its upstream's bug; input that breaks its contract is the program's. "
            f"Look first at what the program passes it, then compare the copy in {whose.vendored}/ with its "
            "upstream's latest (a fix may be there already) before reporting it upstream.\n"
        )
    if whose.acknowledged:
        tracker = "For PyTorch's tracker" if whose.is_torch else f"For the maintainers of {whose.distribution}"
        return (
            f"{tracker}: a bug its maintainers acknowledged ({whose.acknowledged}), raised in its own code "
            f"({whose.evidence}, {whose.named()}): add this bundle there.\n"
        )
    if whose.raised and not whose.admitted:
        return _refused(whose, where)
    if whose.undecided:
        return (
            f"Whose bug this is, the evidence does not decide: the process died by a signal in native code below "
            f"{whose.distribution}'s {whose.evidence} ({whose.named()}), and no native backtrace tells whose code "
            f"faulted: {whose.distribution}'s own (a crash on valid input is its bug), or memory the program handed "
            "it (a view with its own strides, a pointer, a callback of its own). Look first at what the program "
            "passes it; under inject, a program that imports torch gets the native frames that would decide.\n"
        )
    if whose.admitted:
        how = f"it says the bug is its own (`{whose.admitted}`), raised in"
    else:
        how = "the thread died in"
    if whose.is_torch:
        return f"For PyTorch's tracker: {how} torch's own code ({whose.evidence}, {whose.named()}).\n"
    return (
        f"For the maintainers of {whose.distribution}: {how} its code ({whose.evidence}, {whose.named()}), "
        "not in PyTorch's.\n"
    )


def _programs_memory(whose: Culprit) -> str:
    """The report where the library died reading memory the program gave it: a pointer from a bare address, a view
    by its own strides, a file mapped and changed under it; "" otherwise."""
    if whose.handed:
        return (
            f"The program's to fix: the thread died in {whose.distribution}'s native code ({whose.evidence}, "
            f"{whose.named()}) reading memory the program pointed it to from a bare address at {whose.handed} "
            "(ctypes): check that address, the size given and that the memory is still alive first.\n"
        )
    if whose.viewed:
        return (
            f"The program's to fix: the thread died in {whose.distribution}'s native code ({whose.evidence}, "
            f"{whose.named()}) copying a view the program made by its own strides at {whose.viewed} (numpy's "
            "as_strided checks nothing against the buffer): check that the view's shape and strides stay inside "
            "the array it was made over.\n"
        )
    if whose.trapped:
        return (
            f"The program's to fix: the thread died by SIGFPE in {whose.distribution}'s native code "
            f"({whose.evidence}, {whose.named()}) after the program unmasked floating-point exceptions at "
            f"{whose.trapped} (feenableexcept): a 0/0 or x/0 there gives a NaN or an inf as IEEE says, and the trap "
            "the program asked for ended the process. Look for the value that made it (an all-zero input's "
            "standard deviation), or leave the exceptions masked.\n"
        )
    if whose.recursed:
        return (
            f"The program's to fix: the thread ran out of stack in a recursion in {whose.distribution}'s native "
            f"code ({whose.evidence}, one frame {whose.recursed} times over): what the program handed it is nested "
            "deeper than the thread's stack allows, or the program's own code calls itself through the library (a "
            "__torch_function__ that calls torch on its own subclass). Look at that depth (a structure built nested, "
            "a recursion limit the program raised with sys.setrecursionlimit) and at the stack's size (`ulimit -s`, "
            "RLIMIT_STACK).\n"
        )
    return _memory_behind_it(whose)


def _memory_behind_it(whose: Culprit) -> str:
    """_programs_memory's report where the memory's backing was the program's: a mapping gone or closed, a bus error,
    native code its maintainers document as trusting its input; "" otherwise."""
    if whose.bus:
        return (
            f"The program's to look at first: the thread died by SIGBUS in {whose.distribution}'s native code "
            f"({whose.evidence}, {whose.named()}). A bus error is memory whose backing is gone: a file mapped into "
            "memory (np.memmap, mmap, torch.from_file, a dataset's cache) truncated or rewritten while mapped, or "
            "shared memory a full /dev/shm or other tmpfs could not back (`df -h /dev/shm`; a container's is 64 MB "
            "unless given `--shm-size`). Neither is the library's unless it mapped that memory itself.\n"
        )
    if whose.unchecked:
        return (
            f"The program's to look at first: the thread died in {whose.distribution}'s native code "
            f"({whose.evidence}, {whose.named()}), where its maintainers answer such reports by the input: "
            f"{whose.unchecked}, before the call that died.\n"
        )
    if whose.unmapped:
        return (
            f"The program's to fix: the thread died by SIGSEGV in {whose.distribution}'s native code "
            f"({whose.evidence}, {whose.named()}) reading memory the program mapped at {whose.unmapped}: a view of "
            "a mapping (torch.frombuffer, np.frombuffer, a memmap's array) read after the mapping was closed or "
            "unmapped ends its reader so. Keep the mapping open while any view of it is used, or copy what must "
            "outlive it.\n"
        )
    if whose.mapped:
        return (
            f"The program's to fix: the thread died by SIGBUS in {whose.distribution}'s native code "
            f"({whose.evidence}, {whose.named()}) reading a file the program memory-mapped at {whose.mapped}: a "
            "mapped file truncated or rewritten while it is mapped ends its reader so. Keep it whole while mapped "
            "(write a new file and rename it over the old one).\n"
        )
    return ""


def _refused(whose: Culprit, where: str) -> str:
    """An exception a library raised without saying the bug is its own: as its maintainers judge it, the library
    refusing what the program gave it (culprit.py), the program's to fix at the line that called it; where the
    kind of exception is one no check of input raises, undecided, and said so."""
    frames = [p.strip() for p in where.split(";") if " in " in p]
    caller = f" at {frames[-1]}" if len(frames) > 1 else ""
    raised = f"{whose.distribution}'s code ({whose.evidence}, {whose.named()})"
    if whose.undecided:
        return (
            f"Whose bug this is, the evidence does not decide: the error was raised in {raised}, by a kind of "
            "error no check of a caller's input raises, yet a program can cause it too (a patched module, versions "
            f"that do not go together). Look first at the program's call{caller}; where it passes what "
            f"{whose.distribution}'s documentation allows, report it to {whose.distribution}'s maintainers with "
            "this bundle.\n"
        )
    return (
        f"The program's to fix: {whose.distribution} refused what the program gave it. The error was raised in "
        f"{raised} without its saying the bug is its own: a check on its input, doing its job. Look at what the "
        f"program passes it{caller}.\n"
    )


# the engine's words where a program failed on its own, then died at exit (engine/loop.py)
_KILLED_AT_EXIT = re.compile(rf"; then killed by (?P<signal>SIG\w+) {AT_EXIT}$")


def _how_the_child_died(kind) -> str:
    """What a worker_crash's child did, as far as its row tells: its signal, a status, a lost connection, or its own
    exception (a spawned worker's as it started)."""
    if kind.signal:
        return f"died by {kind.signal}"
    if kind.signature.startswith(WORKER_EXITED):
        return "exited with a non-zero status"
    if kind.signature.startswith(WORKER_LOST):
        return "was lost (its connection to the main broke: killed, or ended without a word)"
    return "ended with an error of its own"


def _what_happened(run: FinishedRun, bundle: Bundle) -> str:
    row, kind = bundle.row, bundle.kind
    sentence = _WHAT.get(kind.outcome, "It ended with outcome {outcome}.").format(
        signal=kind.signal or "a signal",
        died=_how_the_child_died(kind),
        exit_code=row.get("exit_code") or "?",
        timeout=run.matrix.get("timeout", "?"),
        outcome=kind.outcome,
        rank=row.get("rank") or "?",
    )
    if peers.names_straggler(str(row.get("error") or "")):
        sentence += (
            f" A collective timed out while rank {row['rank']} was elsewhere, outside any collective: the other "
            f"ranks waited for rank {row['rank']}, which the launcher then stopped."
        )
    elif peers.names_desync(str(row.get("error") or "")):
        sentence += (
            " A collective timed out while every rank waited in one: in different collectives, or in one reached "
            "from different lines of the program (below)."
        )
    elif str(row.get("rank") or "") and kind.outcome != Outcome.RANK_CRASH.value:
        sentence += f" It was rank {row['rank']}'s failure, the first of the distributed job's."
    killed = _KILLED_AT_EXIT.search(str(row.get("error") or ""))
    if killed and kind.outcome in (Outcome.FAIL.value, Outcome.CRASH.value) and not row.get("exit_code"):
        sentence = (
            f"The program stopped with an error, and then, as it shut down, was killed by {killed['signal']} at exit "
            "(so no exit status): its error below is the failure."
        )
    if placed_at_exit(str(row.get("where") or "")):
        sentence += (
            " It died at exit: after the program's main code had finished, as the interpreter shut down and "
            "native libraries cleaned up."
        )
    error = str(row.get("error") or "")
    lines = ["## What happened\n", sentence]
    if error:
        lines += ["", "```text", error, "```"]
    lead = _non_finite_before(run, row) if kind.outcome != Outcome.NAN.value else ""
    if lead and lead not in error:
        lines += ["", "Before it failed, it printed a non-finite value, where it may first have gone wrong:"]
        lines += ["", "```text", lead, "```"]
    lines += [
        "",
        f"crashmatrix's classification: outcome `{kind.outcome}`, signal `{kind.signal or '-'}`, "
        f"signature `{kind.signature or '-'}`"
        + (f", rank `{row['rank']}`" if str(row.get("rank") or "") else "")
        + ".\n",
    ]
    return "\n".join(lines)


def _forward_call(stderr: str, error: str) -> str:
    """Where the forward call that made a failing backward's node was, as torch's anomaly detection said."""
    node, place, code = anomaly.forward_call(stderr, error)
    if not place:
        return ""
    said = f"\nThe forward call that made {node}, as torch's anomaly detection named it (the fix usually goes there):"
    return f"{said} {place}\n" + (f"\n```python\n{code}\n```\n" if code else "")


def _non_finite_before(run: FinishedRun, row: dict) -> str:
    """The first line the failing run printed with a nan or inf in it (resolve/nonfinite.py); "" where none."""
    cell_dir = os.path.join(run.directory, str(row.get("log_dir", "")))
    stdout, stderr = (plain(read_ends(os.path.join(cell_dir, name))) for name in ("stdout.log", "stderr.log"))
    return nonfinite.first_line(stdout, stderr)


def _conditions(run: FinishedRun, bundle: Bundle, told: Told) -> str:
    config = bundle.config
    lines = ["## Conditions and rate\n"]
    for f in told.failures:
        # A confidence below what names a cause would read as a finding: rate and runs say what is known.
        sure = told.findings.is_sure(f) and f.confidence is not None
        confidence = f", confidence {f.confidence:.2f}" if sure else ""
        source = "hunt" if told.findings.source == "hunt" else "explain"
        lines.append(
            f"- It fails {f.conditions_text()} ({source}): {f.failing} of {f.runs} runs there "
            f"({f.rate:.0%}){confidence}."
        )
        if f.masked:
            by = ", ".join(f"{n} by {label}" for label, n in f.masked_by)
            lines.append(
                f"  {f.masked} more runs there failed another way first ({by}): they tell nothing of this one."
            )
    failed = config.kinds[bundle.kind]
    # A matrix with no axes has one configuration, with no values to name
    named = f"The configuration reproduced here, {config.label()}," if config.label() else "The one configuration"
    lines.append(f"- {named} failed so in {failed} of {config.runs} runs.")
    if bundle.rate < 1:
        lines.append(
            f"- Over all its runs the failure came in {bundle.failing} of {bundle.runs} ({bundle.rate:.0%}): it is "
            f"flaky, so the reproduction runs the configuration {bundle.repeats} times, enough to see it at least "
            f"once with probability {told.findings.confidence:.2f} whatever rate {bundle.failing} of {bundle.runs} "
            "leaves likely (not only at that rate itself)."
        )
    for passing in told.passing:
        changed = [f"{a}={v}" for a, v in passing.spelled.items() if config.spelled.get(a) != v]
        lines.append(f"- It passes with {', '.join(changed)} instead ({passing.passed} of {passing.runs} runs).")
    return "\n".join(lines) + "\n"


def telling_lines(stderr: str) -> list[str]:
    """The lines that tell: each distinct fatal line (faulthandler's, a worker's own ERROR), then the last
    traceback to its end; without a traceback, the end of stderr. The stacks themselves go to stacks.txt."""
    lines = [ln for ln in stderr.splitlines() if ln.strip() and not _EXTENSION_MODULES.match(ln)]
    fatal = list(dict.fromkeys(ln for ln in lines if _FATAL.match(ln)))[:5]
    asserted = [ln for ln in lines if KERNEL_ASSERT.match(ln)]  # one line per GPU thread that failed it
    if asserted:
        more = f"  [... and {len(asserted) - 1} more GPU threads, the same assertion]" if len(asserted) > 1 else ""
        fatal = [asserted[0], *([more] if more else []), *fatal]
    starts = [i for i, ln in enumerate(lines) if ln.startswith("Traceback (most recent call last)")]
    tail = lines[starts[-1] :] if starts else lines[-TELLING_LINES:]
    if len(tail) > TELLING_LINES:
        tail = tail[:5] + ["  [...]"] + tail[-(TELLING_LINES - 6) :]
    return [ln for ln in fatal if ln not in tail] + tail


def faulting_thread(stderr: str) -> list[str]:
    """A death by signal, told by its faulting thread only: the fatal line, its native frames from the
    fault to the program's Python (torch's backtrace), then its Python frames from there to the program's
    start (faulthandler's); [] where stderr holds neither."""
    native = [line for line, _path in forensics.faulting_native_frames(stderr)]
    python = [f'  File "{f.file}", line {f.line} in {f.func}' for f in forensics.died_thread_frames(stderr)]
    if not native and not python:
        return []
    fatal = list(dict.fromkeys(ln for ln in stderr.splitlines() if _FATAL.match(ln)))[:5]
    out = fatal + ([""] if fatal else [])
    if native:
        out += ["Native frames of the faulting thread (torch's fatal-signal backtrace), innermost first:", *native, ""]
    if python:
        out += ["Its Python frames (faulthandler), innermost first:", *python]
    return out


def _telling(stderr: str, source: str) -> str:
    died = faulting_thread(stderr)
    if died:
        return (
            "## Telling lines\n\nThe thread that died, from the failing run's stderr:\n\n```text\n"
            + "\n".join(died)
            + "\n```\n"
        )
    lines = telling_lines(stderr)
    if not lines:
        return f"## Telling lines\n\nNothing in {source}.\n"
    return f"## Telling lines\n\nFrom {source}:\n\n```text\n" + "\n".join(lines) + "\n```\n"


def _reproduce(run: FinishedRun, bundle: Bundle, told: Told) -> str:
    lines = ["## To reproduce\n"]
    if told.matrix_path:
        times = "once" if bundle.repeats == 1 else f"{bundle.repeats} times (it failed in {bundle.rate:.0%} of runs)"
        lines += [
            f"With crashmatrix (`pip install crashmatrix`), this runs the configuration {times}:",
            "",
            "```",
            f"crashmatrix run {shlex.quote(told.matrix_path)}",
            "```",
            "",
        ]
    argv = own_command(run, bundle.row)
    if argv:
        lines += ["Without it, the program's own command:", "", "```", shlex.join(argv), "```", ""]
        folder = ran_in(run, bundle.row)
        if folder:
            lines += [f"run in `{folder}`, the folder the failing run started in.", ""]
        if told.apply.code or told.apply.environment:
            lines.append("with these set (crashmatrix applied them from outside the program):")
            lines += [f"- in the program: `{c}`" for c in told.apply.code]
            lines += [f"- in the environment: `{e}`" for e in told.apply.environment]
            lines.append("")
    return "\n".join(lines)


def own_command(run: FinishedRun, row: dict) -> list[str]:
    """The command the failing run was, as the program is run without crashmatrix: the argv the run
    started, less the Hydra directories crashmatrix pointed into its cell; for a Hydra multirun's job,
    whose process is crashmatrix's job runner, the sweep's app (matrix.yaml's command, `python app.py` or
    `python -m pkg.app`, as the repro runs it) with the job's overrides."""
    cell_dir = os.path.join(run.directory, str(row.get("log_dir", "")))
    result = result_of(run, row)
    argv = [str(a) for a in result.get("argv") or []]
    job = read_report(os.path.join(cell_dir, "job.json"))  # the launcher's spec of a multirun's job
    if job is None:
        return [a for a in argv if not _added_by_crashmatrix(a, run.directory)]
    command = [str(c) for c in run.matrix.get("command") or []]
    if not argv or len(command) < 2:
        return []
    return [os.path.normpath(argv[0]), *command[1:], *(str(o) for o in job.get("overrides") or [])]


def _added_by_crashmatrix(arg: str, run_dir: str) -> bool:
    """Hydra's run and sweep directories, which crashmatrix points into the cell's own directory."""
    key, _, value = arg.partition("=")
    return key in ("hydra.run.dir", "hydra.sweep.dir") and os.path.abspath(value).startswith(os.path.abspath(run_dir))


def _environment(run: FinishedRun, whose: Culprit | None) -> str:
    facts = run.fingerprint
    shown = [f"- {k}: {facts[k]}" for k in SUMMARY_FIELDS if facts.get(k) not in (None, "", [], {})]
    if whose is not None and not whose.is_torch:  # the library that raised, or died, whoever's fix it is
        version = whose.version or "version unknown"
        shown.append(f"- {whose.distribution}: {version} (the library on the failing stack)")
    lines = ["## Environment\n"]
    lines += shown or ["- (the run kept no env.json)"]
    lines += ["", "The full `python -m torch.utils.collect_env` of the failing cell's interpreter: collect_env.txt.\n"]
    return "\n".join(lines)
