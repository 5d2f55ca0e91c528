"""ISSUE.md of a repro bundle: one failure, told as an upstream tracker asks (PyTorch's bug template: what
happened, a minimal reproduction, the environment), in the order a maintainer reads it.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from crashmatrix.machine.fingerprint import SUMMARY_FIELDS
from crashmatrix.outcome import Outcome
from crashmatrix.plain_text import plain
from crashmatrix.resolve.apply import Apply
from crashmatrix.resolve.configs import Config
from crashmatrix.resolve.failures import Failure, Findings
from crashmatrix.resolve.repro import Bundle
from crashmatrix.rundir.cell_logs import read_ends, read_report
from crashmatrix.rundir.finished_run import FinishedRun

TELLING_LINES = 40  # of the failing run's stderr at most
_FATAL = re.compile(r"^(Fatal Python error: |ERROR: Unexpected |.*DataLoader worker \(pid)")

_WHAT = {
    Outcome.CRASH.value: "The program's main process was killed by {signal}.",
    Outcome.WORKER_CRASH.value: "A child process of the program (a DataLoader worker or a spawned process) died by "
    "{signal}, and the main process reported it and stopped.",
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
    parts = [f"# {title}\n", _what_happened(run, bundle), _conditions(run, bundle, told), _telling(run, row)]
    where = str(row.get("where") or "")
    parts.append(f"## Where\n\n{where}\n" if where else "## Where\n\nNot recorded for this failure.\n")
    if told.has_stacks:
        parts.append("## Stacks\n\nThe Python stacks of the failing run are in stacks.txt beside this file.\n")
    parts += [_reproduce(run, bundle, told), _environment(run)]
    return "\n".join(parts)


def _what_happened(run: FinishedRun, bundle: Bundle) -> str:
    row, kind = bundle.row, bundle.kind
    sentence = _WHAT.get(kind.outcome, "It ended with outcome {outcome}.").format(
        signal=kind.signal or "a signal",
        exit_code=row.get("exit_code") or "?",
        timeout=run.matrix.get("timeout", "?"),
        outcome=kind.outcome,
        rank=row.get("rank") or "?",
    )
    if str(row.get("rank") or "") and kind.outcome != Outcome.RANK_CRASH.value:
        sentence += f" It was rank {row['rank']}'s failure, the first of the distributed job's."
    error = str(row.get("error") or "")
    lines = ["## What happened\n", sentence]
    if error:
        lines += ["", "```text", error, "```"]
    lines += [
        "",
        f"crashmatrix's classification: outcome `{kind.outcome}`, signal `{kind.signal or '-'}`, "
        f"signature `{kind.signature or '-'}`"
        + (f", rank `{row['rank']}`" if str(row.get("rank") or "") else "")
        + ".\n",
    ]
    return "\n".join(lines)


def _conditions(run: FinishedRun, bundle: Bundle, told: Told) -> str:
    config = bundle.config
    lines = ["## Conditions and rate\n"]
    for f in told.failures:
        confidence = "" if f.confidence is None else f", confidence {f.confidence:.2f}"
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
    lines.append(
        f"- The configuration reproduced here, {config.label()}, failed so in {failed} of {config.runs} runs "
        f"({bundle.rate:.0%})."
    )
    for passing in told.passing:
        changed = [f"{a}={v}" for a, v in passing.spelled.items() if config.spelled.get(a) != v]
        lines.append(f"- It passes with {', '.join(changed)} instead ({passing.passed} of {passing.runs} runs).")
    return "\n".join(lines) + "\n"


def telling_lines(stderr: str) -> list[str]:
    """The lines that tell: each distinct fatal line (faulthandler's, a worker's own ERROR), then the last
    traceback to its end; without a traceback, the end of stderr. The stacks themselves go to stacks.txt."""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    fatal = list(dict.fromkeys(ln for ln in lines if _FATAL.match(ln)))[:5]
    starts = [i for i, ln in enumerate(lines) if ln.startswith("Traceback (most recent call last)")]
    tail = lines[starts[-1] :] if starts else lines[-TELLING_LINES:]
    if len(tail) > TELLING_LINES:
        tail = tail[:5] + ["  [...]"] + tail[-(TELLING_LINES - 6) :]
    return [ln for ln in fatal if ln not in tail] + tail


def _telling(run: FinishedRun, row: dict) -> str:
    stderr = plain(read_ends(os.path.join(run.directory, str(row.get("log_dir", "")), "stderr.log")))
    lines = telling_lines(stderr)
    if not lines:
        return "## Telling lines\n\nThe failing run wrote nothing to stderr.\n"
    return "## Telling lines\n\nFrom the failing run's stderr:\n\n```text\n" + "\n".join(lines) + "\n```\n"


def _reproduce(run: FinishedRun, bundle: Bundle, told: Told) -> str:
    lines = ["## To reproduce\n"]
    if told.matrix_path:
        times = "once" if bundle.repeats == 1 else f"{bundle.repeats} times (it fails {bundle.rate:.0%} of runs)"
        lines += [
            f"With crashmatrix (`pip install crashmatrix`), this runs the configuration {times}:",
            "",
            "```",
            f"crashmatrix run {shlex.quote(told.matrix_path)}",
            "```",
            "",
        ]
    result = read_report(os.path.join(run.directory, str(bundle.row.get("log_dir", "")), "result.json")) or {}
    argv = [a for a in (str(a) for a in result.get("argv") or []) if not _added_by_crashmatrix(a, run.directory)]
    if argv:
        lines += ["Without it, the command the failing run started:", "", "```", shlex.join(argv), "```", ""]
        if told.apply.code or told.apply.environment:
            lines.append("with these set (crashmatrix applied them from outside the program):")
            lines += [f"- in the program: `{c}`" for c in told.apply.code]
            lines += [f"- in the environment: `{e}`" for e in told.apply.environment]
            lines.append("")
    return "\n".join(lines)


def _added_by_crashmatrix(arg: str, run_dir: str) -> bool:
    """Hydra's run and sweep directories, which crashmatrix points into the cell's own directory."""
    key, _, value = arg.partition("=")
    return key in ("hydra.run.dir", "hydra.sweep.dir") and os.path.abspath(value).startswith(os.path.abspath(run_dir))


def _environment(run: FinishedRun) -> str:
    facts = run.fingerprint
    shown = [f"- {k}: {facts[k]}" for k in SUMMARY_FIELDS if facts.get(k) not in (None, "", [], {})]
    lines = ["## Environment\n"]
    lines += shown or ["- (the run kept no env.json)"]
    lines += ["", "The full `python -m torch.utils.collect_env` of the failing cell's interpreter: collect_env.txt.\n"]
    return "\n".join(lines)
