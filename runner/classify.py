"""From how a cell's process ended to an outcome word, a signal name and one telling line.

Pure: exit status, the timeout flag, the tail of the cell's output and the
probe's own report go in; nothing is read or run here. The patterns come from
the messages PyTorch, CUDA and CPython really print (../shared/DESIGN.md).
"""

from __future__ import annotations

import re
import signal as _signal
from dataclasses import dataclass

from runner.outcome import Outcome

# strsignal() texts, as PyTorch's "is killed by signal: <text>" prints them.
_SIGNAL_TEXT = {
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
}
_WORKER_ERROR_TEXT = {
    "segmentation fault": "SIGSEGV",
    "bus error": "SIGBUS",
    "floating point error": "SIGFPE",
}


def signal_name(number: int) -> str:
    try:
        return _signal.Signals(number).name
    except ValueError:
        return f"SIG{number}"


@dataclass(frozen=True)
class Verdict:
    outcome: Outcome
    signal: str = ""
    error: str = ""


# A worker or a rank that died by a signal, as the main process reports it; group "sig" names it.
_CHILD_SIGNAL = [
    # The text may go on ("Bus error. It is possible that dataloader's workers are out of shared memory...").
    re.compile(r"DataLoader worker \(pid \d+\) is killed by signal: (?P<text>[A-Za-z /]+?)(?:\.|\s*$)", re.M),
    re.compile(r"ERROR: Unexpected (?P<text>segmentation fault|bus error|floating point error) encountered in worker", re.M),
    re.compile(r"process \d+ terminated with signal (?P<sig>SIG[A-Z0-9]+)", re.M),
    re.compile(r"Signal \d+ \((?P<sig>SIG[A-Z0-9]+)\) received by PID", re.M),
    re.compile(r"exitcode\s*:\s*-(?P<num>\d+)", re.M),
]
# A child died but no signal is named (yet): still a worker crash.
_CHILD_DIED = re.compile(
    r"DataLoader worker \(pid\(?s?\)? [\d, ]+\) exited unexpectedly"
    r"|Pin memory thread exited unexpectedly"
    r"|ConnectionResetError.*|ConnectionRefusedError.*"
    r"|process \d+ terminated with exit code \d+",
    re.M,
)
# "rebuild_storage_fd" then ConnectionResetError: the main process lost a worker mid-transfer.
_LOST_WORKER_FRAMES = re.compile(r"rebuild_storage_fd|_pin_memory_loop|_try_get_data")

_OOM = re.compile(
    r"CUDA out of memory|OutOfMemoryError|^MemoryError|\bMemoryError\b|std::bad_alloc"
    r"|DefaultCPUAllocator: can't allocate memory|Cannot allocate memory"
    r"|unable to allocate shared memory",
    re.M,
)
_CUDA = re.compile(
    r"CUDA error|CUDA driver error|cuDNN error|CUDNN_STATUS_|CUBLAS_STATUS_|cuBLAS error|NCCL error"
    r"|AcceleratorError|Cannot re-initialize CUDA in forked subprocess|CUDA-capable device"
    r"|device-side assert triggered|Watchdog caught collective operation timeout",
    re.M,
)
_PY_EXCEPTION = re.compile(r"^(?:[A-Za-z_][\w.]*\.)?[A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|Warning)\b(?::.*)?$|^[A-Za-z_][\w.]*Error:.*$", re.M)
_FATAL = re.compile(r"^Fatal Python error: .*$", re.M)


def _last(pattern: re.Pattern, text: str):
    found = None
    for found in pattern.finditer(text):
        pass
    return found


def _line_of(text: str, m: re.Match) -> str:
    start = text.rfind("\n", 0, m.start()) + 1
    end = text.find("\n", m.end())
    return text[start : end if end != -1 else len(text)].strip()


def _child_signal(text: str) -> tuple[str, str] | None:
    """(signal, line) of the last child death that names a signal."""
    best = None
    for pat in _CHILD_SIGNAL:
        m = _last(pat, text)
        if m is None:
            continue
        groups = m.groupdict()
        if groups.get("sig"):
            sig = groups["sig"]
        elif groups.get("num"):
            sig = signal_name(int(groups["num"]))
        else:
            t = groups["text"].strip()
            sig = _SIGNAL_TEXT.get(t) or _WORKER_ERROR_TEXT.get(t.lower()) or ""
        candidate = (m.start(), sig, _line_of(text, m))
        # Prefer the main process's report (printed after the worker's own line).
        if best is None or candidate[0] > best[0]:
            best = candidate
    return (best[1], best[2]) if best else None


def exception_line(text: str) -> str:
    """The last Python exception line (`RuntimeError: ...`), else the last non-empty line."""
    m = _last(_PY_EXCEPTION, text)
    if m:
        return m.group(0).strip()
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""



def classify(
    returncode: int | None,
    *,
    timed_out: bool = False,
    stderr: str = "",
    stdout: str = "",
    report: dict | None = None,
    timeout_s: float | None = None,
) -> Verdict:
    """returncode as subprocess gives it: negative for death by a signal."""
    text = stderr + ("\n" + stdout if stdout else "")
    report = report or {}

    if timed_out:
        tail = exception_line(stderr)
        when = f"after {timeout_s:g} s" if timeout_s else ""
        return Verdict(Outcome.TIMEOUT, "", f"timed out {when}".strip() + (f"; last line: {tail}" if tail else ""))

    status = report.get("status")
    if status == "skip":
        return Verdict(Outcome.SKIP, "", report.get("reason", ""))
    if status == "nan" and (returncode is None or returncode >= 0):
        return Verdict(Outcome.NAN, "", report.get("reason", "non-finite value"))

    if returncode is not None and returncode < 0:
        sig = signal_name(-returncode)
        fatal = _last(_FATAL, stderr)
        cuda = _last(_CUDA, text)
        if cuda and sig == "SIGABRT":
            # A CUDA/cuDNN error that ended in abort() is still a CUDA error to the user.
            return Verdict(Outcome.CUDA_ERROR, sig, _line_of(text, cuda))
        line = fatal.group(0).strip() if fatal else f"killed by {sig}"
        return Verdict(Outcome.CRASH, sig, line)

    if returncode == 0:
        if status == "error":
            return Verdict(Outcome.FAIL, "", report.get("reason", "the probe reported an error"))
        return Verdict(Outcome.PASS)

    # Exited non-zero: the class comes from the output.
    if returncode is not None and returncode > 128:
        # A shell or launcher in between reports a signalled child as 128+N.
        sig = signal_name(returncode - 128)
        fatal = _last(_FATAL, stderr)
        for text_name, name in _SIGNAL_TEXT.items():
            if name == sig and (text_name in stderr or fatal):
                return Verdict(Outcome.CRASH, sig, fatal.group(0).strip() if fatal else f"exit status {returncode}: {text_name}")

    oom = _last(_OOM, text)
    if oom and "CUDA out of memory" in oom.group(0):
        return Verdict(Outcome.OOM, "", _line_of(text, oom))
    child = _child_signal(text)
    if child:
        sig, line = child
        return Verdict(Outcome.WORKER_CRASH, sig, line)
    cuda = _last(_CUDA, text)
    if cuda:
        return Verdict(Outcome.CUDA_ERROR, "", _line_of(text, cuda))
    if oom:
        return Verdict(Outcome.OOM, "", _line_of(text, oom))
    died = _last(_CHILD_DIED, text)
    if died and (not died.group(0).startswith("Connection") or _LOST_WORKER_FRAMES.search(text)):
        return Verdict(Outcome.WORKER_CRASH, "", _line_of(text, died))
    if status == "nan":
        return Verdict(Outcome.NAN, "", report.get("reason", "non-finite value"))
    line = exception_line(stderr) or exception_line(stdout) or ""
    return Verdict(Outcome.FAIL, "", line or f"exit status {returncode}")
