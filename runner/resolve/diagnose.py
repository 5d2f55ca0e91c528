"""`crashmatrix diagnose LOG...`: the verdict a cell would get, from a failed job's text alone.

One set of rules, two doors: the text goes through the very functions a cell's end goes through
(verdict/classify.py's classify, forensics.refine for `where`, signed_by_place for the signature) and whose
fix it is through resolve/issue.py's whose_fix (ISSUE.md's addressee) and verdict/remedies.py. What this
module adds is only what a cell knows from its run and a log does not: the exit status. A log is read as a
failed job's (classify with an exit status of 1), or as a death by the signal its text names (faulthandler's
`Fatal Python error: Segmentation fault`, a shell's `Segmentation fault (core dumped)`) where no other failure
is told; Slurm's `task 3: Segmentation fault` is a rank's, read by verdict/ranks.py as in a cell's output.
What only a run knows is said, never guessed.
"""

from __future__ import annotations

import re
import signal
from dataclasses import dataclass, field

from crashmatrix.outcome import KILLED_BY_SIGNAL, Outcome
from crashmatrix.resolve.issue import whose_fix
from crashmatrix.resolve.log_text import Log
from crashmatrix.rundir.store import ERROR_LENGTH, WHERE_LENGTH, one_line
from crashmatrix.verdict import config_place, forensics, kept_stacks, peers, stacks
from crashmatrix.verdict.classify import Verdict, classify, signed_by_place, tells_a_failure
from crashmatrix.verdict.evidence import Evidence
from crashmatrix.verdict.parsed import read_output
from crashmatrix.verdict.remedies import remedy, remedy_told
from crashmatrix.verdict.signature import signal_name

# results.csv's keys a log can fill; the others (duration_s, host, log_dir, metrics) only a run has.
ROW_KEYS = ("outcome", "signal", "exit_code", "error", "signature", "where", "rank")


@dataclass
class Diagnosis:
    found: bool  # a failure is told; False: "no failure found"
    row: dict = field(default_factory=dict)  # results.csv's keys: what a cell's row would say
    whose: str = ""  # whose fix it is (ISSUE.md's addressee paragraph)
    fix: str = ""  # the fix of a known kind (verdict/remedies.py), else ""
    cannot_tell: list[str] = field(default_factory=list)  # what only a run would know
    names: list[str] = field(default_factory=list)
    # why none was found: what the log holds of exceptions Python went on after
    none_found: str = "no traceback, fatal error or failing rank"


def diagnose(log: Log) -> Diagnosis:
    """The verdict of the job whose text `log` is."""
    text = log.text
    if log.stacks:
        return _hung(log, _before_the_kill(text, log.stacks))
    if not tells_a_failure(text):
        found = Diagnosis(False, cannot_tell=_cannot_tell(None, text, log), names=log.names)
        if "Exception ignored in" in text or "--- Logging error ---" in text:
            found.none_found = (
                "no traceback but those Python or logging printed and went on from (`Exception ignored in:`, "
                "`--- Logging error ---`), no fatal error or failing rank"
            )
        return found
    verdict = _judged(text)
    stopped = _stopped_launcher(verdict, text)
    if stopped is not None:  # the launcher's own frames are no place of the job's: none is known
        verdict, where = stopped, ""
    else:
        ev = Evidence(pid=0, started=0.0, stderr=text)  # no process to ask, no kernel log of that machine to read
        verdict, where = forensics.refine(verdict, ev, kernel_log=lambda *_: [])
        # a collective's timeout: where the rank it waited for was, from the stacks its run kept of the others
        verdict, where = peers.at_collective_timeout(verdict, where, "", text, kept=log.peers)
        where = config_place.placed_from_log(verdict, where, text)  # a Hydra app's config line, where it is here
    verdict = signed_by_place(verdict, where)
    row = _row(verdict, where)
    whose, _culprit = whose_fix(_Kind(row), verdict.told or text, where, verdict.error, {})
    if stopped is not None:
        whose = (
            "No failure of the job's own to fix: it was stopped from outside. If a time limit stopped it, it hung "
            "or ran slow: run it under crashmatrix with a timeout, whose stacks say where it waited."
        )
    cannot = _cannot_tell(verdict, text, log)
    if stopped is not None:
        cannot.append(
            "why it was stopped, and where its ranks were then: a log holds no stacks of a job that was waiting "
            "(run it under crashmatrix with a timeout: a hang's stacks are saved before the kill)"
        )
    if verdict.outcome is Outcome.FAIL and config_place.is_config_error(text) and ".yaml:" not in where:
        cannot.append(
            "the config file and line: Hydra's message names the key, but neither the log nor the folder "
            "diagnose ran in leads to the app's configs (run diagnose in the app's folder, or the app "
            "under crashmatrix)"
        )
    fix = remedy_told(verdict.signature, verdict.signal or "", verdict.error)
    return Diagnosis(True, row, whose.strip(), fix, cannot, log.names)


def _row(verdict: Verdict, where: str) -> dict:
    return {
        "outcome": verdict.outcome.value,
        "signal": verdict.signal,
        "exit_code": "",
        "error": one_line(verdict.error, ERROR_LENGTH),
        "signature": verdict.signature,
        "where": one_line(where, WHERE_LENGTH),
        "rank": "" if verdict.rank is None else str(verdict.rank),
    }


def _hung(log: Log, text: str) -> Diagnosis:
    """A cell that timed out, from its stacks.txt (the log's `stacks`) and text, what it printed before the kill:
    a timeout placed where it waited, as the run placed it (verdict/kept_stacks.py). A death the text tells (a
    child's segfault, glibc's abort words) is not the cell's: its processes were alive and waiting at the kill."""
    ev = Evidence(pid=0, started=0.0, stderr=text, hang=kept_stacks.hang(log.stacks))
    verdict, where = forensics.refine(classify(None, timed_out=True, stderr=text), ev, kernel_log=lambda *_: [])
    verdict = signed_by_place(verdict, where)
    row = _row(verdict, where)
    busy, openmp = stacks.busy_mark(log.stacks), kept_stacks.child_in_openmp(log.stacks)
    whose, _culprit = whose_fix(_Kind(row), text, where, verdict.error, {}, busy, openmp=openmp)
    cannot = [
        "the exit status: a log does not carry it (exit_code is left empty)",
        "the time limit it was stopped at: the run's row says it (`timed out after N s`)",
    ]
    return Diagnosis(True, row, whose.strip(), remedy(verdict.signature, ""), cannot, log.names)


# faulthandler's dump as the timeout's SIGABRT ended a process (forensics.abort_dumps): the kill's, not the hang's
_ABORTED = "\nFatal Python error: Aborted\n"


def _before_the_kill(text: str, kept: str) -> str:
    """What the job printed before the timeout's kill: its text up to the first dump SIGABRT made as it ended a
    process that gave no other stacks (stacks.txt says which), as the run read it (Evidence.stderr_at_kill)."""
    at = ("\n" + text).find(_ABORTED) if "as SIGABRT ended the process" in kept else -1
    return text if at == -1 else text[:at]


@dataclass(frozen=True)
class _Kind:
    """A row's failure kind as whose_fix reads it (outcome, signal, signature)."""

    row: dict

    @property
    def outcome(self) -> str:
        return self.row["outcome"]

    @property
    def signal(self) -> str:
        return self.row["signal"]

    @property
    def signature(self) -> str:
        return self.row["signature"]


def told_signal(text: str) -> str:
    """The signal the log says its process died by (SIGSEGV), where it says one; else "" (read by the parser a
    cell's output is read by: verdict/parsed.py)."""
    return read_output(text).died_by


def _judged(text: str) -> Verdict:
    """classify's verdict, the exit status unknown: a failed job's (1); where that tells only the last line (or a
    memory error) and the text names a signal its process died by, a death by that signal (as a cell whose status
    was -N)."""
    verdict = classify(1, stderr=text)
    # a memory error whose process then died by a signal (C++'s terminate on std::bad_alloc, then abort): the death
    if verdict.outcome not in (Outcome.FAIL, Outcome.OOM) or verdict.signal or verdict.rank is not None:
        return verdict
    sig = told_signal(text)
    if not sig or sig in ("SIGTERM", "SIGINT"):
        return verdict
    return classify(-signal.Signals[sig].value, stderr=text)


_SIGNAL_EXCEPTION = re.compile(r"SignalException: Process \d+ got signal: (?P<num>\d+)")


def _stopped_launcher(verdict: Verdict, text: str) -> Verdict | None:
    """torchrun stopped from outside (a time limit's SIGTERM, a cancel, a kill): its signal handler raises
    SignalException in its own frames, and classify read that as the job's failure, placed in torchrun, while
    no rank had failed. A death by that signal, with no place; None for any other verdict."""
    if verdict.outcome is not Outcome.FAIL or verdict.rank is not None:
        return None
    last = read_output(text).last_traceback()
    said = _SIGNAL_EXCEPTION.search(last.exception) if last is not None else None
    if last is None or said is None:
        return None
    name = signal_name(int(said["num"]))
    error = (
        f"the launcher was sent {name} and stopped its ranks ({last.exception.rsplit('.', 1)[-1]}): the job was "
        "stopped from outside (a time limit, a cancel, a kill), not by a failure of its own"
    )
    return Verdict(Outcome.CRASH, name, error, KILLED_BY_SIGNAL)


def _cannot_tell(verdict: Verdict | None, text: str, log: Log) -> list[str]:
    """What only the run would know, for this log."""
    said = ["the exit status: a log does not carry it (exit_code is left empty)"]
    if verdict is None:
        said.append(
            "a hang: a job killed for its time limit that printed no stacks looks like one that succeeded "
            "(run it under crashmatrix with a timeout: its stacks are saved before the kill)"
        )
    elif verdict.outcome in (Outcome.CRASH, Outcome.RANK_CRASH, Outcome.WORKER_CRASH) and verdict.signal == "SIGKILL":
        said.append("whether the kernel's OOM killer sent the SIGKILL: its log is the machine's, not the job's")
    out = read_output(text)
    collective = out.collective_timeout
    if collective and not log.peers:
        said.append(
            "where the rank the others waited for was: a cell asks every surviving rank for its stacks "
            "(verdict/peers.py); a log has only what each printed"
        )
    if verdict is not None and verdict.outcome is Outcome.CUDA_ERROR and not collective:
        said.append(
            "the line that launched the failing kernel: CUDA errors are asynchronous (a cell reruns with "
            "CUDA_LAUNCH_BLOCKING=1 to find it)"
        )
    if out.is_distributed and len(log.names) > 1:
        said.append(
            "the order of the ranks' failures in time: separate files share no clock (consequences are told apart)"
        )
    if log.left_out:
        said.append(f"{log.left_out / 1e6:.1f} MB of the log's middle were read for their telling lines only")
    logged = _logged_and_went_on(text) if verdict is not None and verdict.outcome is Outcome.FAIL else ""
    if logged:
        said.append(
            f"whether the program handled that exception: it was logged (`{logged}`) and the program printed more "
            "after it; a job that then ended with exit status 0 passed"
        )
    return said


# A logging record's head before a logged traceback (`logger.exception(...)`, `exc_info=True`): Python's default
# format (`ERROR:train:could not write`) or one with a time and a level (`2026-11-30 01:34:20,573 ERROR bfit: ...`).
_LOG_RECORD = re.compile(r"^(?:(?:ERROR|CRITICAL):\S*:|.*?\b(?:ERROR|CRITICAL|EXCEPTION)\b\s*[\]:|-]?\s*\S)")


def _logged_and_went_on(text: str) -> str:
    """The logging record's line where the failing (last) traceback was logged by the program, not printed by
    Python as it ended, and the program printed more after it (the sixteenth held-out set's
    b_pass_logged_exception: a summary's TypeError logged, then `INFO bfit: done`, exit 0); "" otherwise."""
    tracebacks = [t for t in read_output(text).tracebacks if t.on_own_line and not t.ignored]
    if not tracebacks:
        return ""
    last = tracebacks[-1]
    head = text[text.rfind("\n", 0, max(last.start - 1, 0)) + 1 : max(last.start - 1, 0)].strip()
    ends = text.find(last.exception, last.at) if last.exception else -1
    if not head or not _LOG_RECORD.match(head) or ends == -1:
        return ""
    after = text[ends + len(last.exception) :].strip()
    return one_line(head, 160) if after else ""


def printed(found: Diagnosis) -> str:
    """The diagnosis for a person: the verdict's fields, whose fix, what the log cannot tell."""
    if not found.found:
        lines = [f"no failure found in {', '.join(found.names)}: {found.none_found}"]
    else:
        row = found.row
        head = " ".join(p for p in (row["outcome"], row["signal"]) if p)
        lines = [head + (f" (rank {row['rank']} failed first)" if row["rank"] else "")]
        for key in ("error", "signature", "where"):
            if row[key]:
                lines.append(f"  {key + ':':10} {row[key]}")
        lines.append(f"  {'whose:':10} {found.whose}")
        if found.fix:
            lines.append(f"  {'fix:':10} {found.fix}")
    lines.append("the log cannot tell:")
    lines += [f"  - {said}" for said in found.cannot_tell]
    return "\n".join(lines)
