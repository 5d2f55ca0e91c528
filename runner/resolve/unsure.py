"""What a run cannot tell yet, and the command that would, printed so that it runs as pasted.

- A cause below the confidence asked (one run per cell: a failure that comes every time and one that
  comes half the time look alike): the same cells again with more repeats (a full run), hunt going on
  (a hunt's run directory), or a hunt seeded with the run's rows (a pairwise run: the cells that would
  tell were never run).
- A recommendation with fewer clean runs than a flaky cause's rate needs: a cause failing at rate r
  passes n runs in a row with probability (1 - r)^n, so it needs n with that below 1 - confidence.
- A rerun of only the failing cells: the passing configurations are in the run it came from.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass

from crashmatrix.hunt.search import clean_runs_needed
from crashmatrix.resolve.choose import Choice
from crashmatrix.resolve.failures import Findings
from crashmatrix.rundir import kept_options
from crashmatrix.rundir.finished_run import FinishedRun


@dataclass(frozen=True)
class Unsure:
    reason: str
    command: str = ""  # the crashmatrix command that would tell, as it pastes; "" where none would

    def to_json(self) -> dict:
        return {"reason": self.reason, "command": self.command}


def clean_runs_wanted(findings: Findings) -> int:
    """Clean runs a configuration needs before it is believed free of the run's flakiest cause."""
    rates = [f.rate for f in findings.failures if f.conditions is not None and 0 < f.rate]
    return max((clean_runs_needed(r, findings.confidence) for r in rates), default=1)


def max_repeats(run: FinishedRun) -> int:
    counts: dict[str, int] = {}
    for row in run.rows:
        counts[str(row.get("cell_id"))] = counts.get(str(row.get("cell_id")), 0) + 1
    return max(counts.values(), default=0)


def cannot_tell(run: FinishedRun, given: str, findings: Findings, choice: Choice) -> list[Unsure]:
    """given: RUN as the user typed it (the commands name it so)."""
    out: list[Unsure] = []
    source = _rerun_of_failing(run)
    if source:
        out.append(
            Unsure(
                "this run holds only the failing cells of the run it reran (rerun --failing): the passing "
                "configurations to choose from are there",
                f"crashmatrix resolve {shlex.quote(source)}",
            )
        )
    repeats = max(1, max_repeats(run))
    unsure = findings.unsure()
    wanted = clean_runs_wanted(findings)
    rec = choice.recommended
    rerun_repeats = 0
    if unsure:
        rerun_repeats = max(2 * repeats, wanted)
        names = "; ".join(f"{f.label()} {f.conditions_text()}" for f in unsure)
        how = _confidence_text(findings, unsure)
        command = _settle_command(run, given, findings, rerun_repeats)
        out.append(Unsure(f"not yet sure of the cause ({how}): {names}", command))
    elif findings.source == "hunt" and findings.hunt_complete is False:
        out.append(
            Unsure(
                "the hunt stopped at its budget (--max-runs) before every conjunction of its order had run "
                "clean: a cause may not have shown yet",
                _settle_command(run, given, findings, 0),
            )
        )
    if rec is not None and rec.passed < wanted:
        flaky = min((f for f in findings.failures if f.conditions is not None and f.rate > 0), key=lambda f: f.rate)
        rerun_repeats = max(rerun_repeats, wanted)
        out.append(
            Unsure(
                f"the recommended configuration passed {rec.passed} of {rec.passed} runs; a failure at "
                f"{flaky.rate:.0%} ({flaky.kind.label()}) would pass that often with probability "
                f"{(1 - flaky.rate) ** rec.passed:.2f}; {wanted} clean runs make it less than "
                f"{1 - findings.confidence:.2f}",
                _rerun(given, rerun_repeats) if _has_matrix(run) else "",
            )
        )
    if choice.recommended is None and not source:
        out.append(Unsure(_nothing_passed(findings)))
    return _one_rerun(out, given, rerun_repeats)


def _confidence_text(findings: Findings, unsure) -> str:
    shown = ", ".join("not weighed" if f.confidence is None else f"{f.confidence:.2f}" for f in unsure)
    return f"confidence {shown}, below {findings.confidence}"


def _has_matrix(run: FinishedRun) -> bool:
    """Whether rerun and hunt can read the run's matrix (a bare results.csv has none)."""
    return os.path.exists(os.path.join(run.directory, "matrix.yaml"))


def _settle_command(run: FinishedRun, given: str, findings: Findings, repeats: int) -> str:
    if not _has_matrix(run):
        return ""
    if findings.source == "hunt":
        if not kept_options.kept_by(run.directory, "hunt"):  # a sweeper's hunt: no --resume
            return ""
        spent = findings.hunt_runs or len(run.rows)
        return f"{kept_options.resume_command('hunt', given)} --max-runs {max(2 * spent, spent + 50)}"
    if run.strategy == "full":
        return _rerun(given, repeats)
    matrix = shlex.quote(os.path.join(given, "matrix.yaml"))
    return f"crashmatrix hunt {matrix} --from {shlex.quote(given)}"


def _rerun(given: str, repeats: int) -> str:
    return f"crashmatrix rerun {shlex.quote(given)} repeats={repeats}"


def _one_rerun(found: list[Unsure], given: str, repeats: int) -> list[Unsure]:
    """Every rerun asked for becomes the one with the most repeats: one command settles them all."""
    if not repeats:
        return found
    return [
        Unsure(u.reason, _rerun(given, repeats)) if u.command.startswith("crashmatrix rerun ") else u for u in found
    ]


def _nothing_passed(findings: Findings) -> str:
    if any(f.conditions == {} for f in findings.failures):
        return (
            "it fails in every configuration: the program itself, not a setting; the bug reports below are the way on"
        )
    return (
        "no configuration of this run passed every run outside the failing conjunctions; "
        "a matrix with other values (another start method, fewer workers) would have one to offer"
    )


def _rerun_of_failing(run: FinishedRun) -> str:
    """The run a `rerun --failing` came from, as a path; "" for any other run."""
    import json

    try:
        with open(os.path.join(run.directory, "rerun.json"), encoding="utf-8") as f:
            selection = json.load(f)
    except (OSError, ValueError):
        return ""
    if not isinstance(selection, dict) or not selection.get("failing"):
        return ""
    from crashmatrix.text import shown_path

    return shown_path(str(selection.get("source", "")))
