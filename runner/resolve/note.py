"""resolution.md, in the order of a resolution note (summary, evidence, causes with their confidence and
masking, what to run instead and what it costs), and the few lines `crashmatrix resolve` prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from crashmatrix.answers.slow import Slow
from crashmatrix.resolve.apply import Apply
from crashmatrix.resolve.choose import Choice
from crashmatrix.resolve.configs import MIN_TIMED_RUNS, WALL, Config, speed_untold, time_ratio
from crashmatrix.resolve.defaults import Defaults
from crashmatrix.resolve.failures import Failure, Findings
from crashmatrix.resolve.machines import MachineCause
from crashmatrix.resolve.repro import Bundle
from crashmatrix.resolve.tried import Tried
from crashmatrix.resolve.unsure import Unsure
from crashmatrix.rundir.finished_run import FinishedRun
from crashmatrix.text import table
from crashmatrix.verdict.remedies import remedy

MOST_ROWS = 40  # configurations in the evidence table
MOST_COSTS = 5  # other candidates in the cost table


@dataclass(frozen=True)
class Resolved:
    """Everything resolve found, as note.py and verb.py read it."""

    run: FinishedRun
    shown: str  # RUN as the user gave it
    configs: Sequence[Config]
    findings: Findings
    choice: Choice
    defaults: Defaults
    unsure: Sequence[Unsure]
    bundles: Sequence[Bundle]
    applied: Apply | None  # how to apply the recommended configuration
    machines: Sequence[MachineCause] = ()  # a fleet's failures that need a node; the rest is the other nodes'
    avoid: Sequence[Slow] = ()  # slow conjunctions (explain's findings beyond failure), with their cost
    tried: Sequence[Tried] = ()  # the changes `resolve --try` ran for the slow ones (RUN/tried/)


def speed_text(config: Config, metric: str) -> str:
    median = config.median(metric)
    if median is None:
        return "not timed"
    return f"median {median:.2f} s wall" if metric == WALL else f"median {median:.3g} steps/s"


def cost_text(config: Config, base: Config, metric: str) -> str:
    """`3.4× the time`; no ratio where speed cannot be told: a 2.0× whose runs overlap is no measured cost,
    nor is one run a side on a busy machine."""
    ratio = time_ratio(config, base, metric)
    if ratio is None:
        return "time unknown"
    untold = speed_untold(config, base, metric)
    if untold == "too few runs":
        return f"speed cannot be told yet (fewer than {MIN_TIMED_RUNS} timed runs a side)"
    return "as fast, within noise" if untold else f"{ratio:.1f}× the time"


def failure_text(f: Failure, findings: Findings) -> str:
    if f.conditions is None:
        return f"{f.label()}: background noise, {f.failing} of {f.runs} runs of its cell"
    how = "every time so far" if not f.flaky else f"{f.rate:.0%} of runs: flaky"
    if f.confidence is None:
        sure = "confidence not weighed (a conjunction longer than hunt's model weighs)"
    else:
        by = "hunt" if findings.source == "hunt" else "hunt's model over this run's rows"
        verdict = "named" if findings.is_sure(f) else f"below {findings.confidence}: not yet named"
        sure = f"confidence {f.confidence:.2f} ({by}; {verdict})"
    return f"{f.label()} {f.conditions_text()}: {f.failing} of {f.runs} runs there, {how}; {sure}"


def masking_text(f: Failure) -> str:
    if not f.masked:
        return "masked: none"
    by = ", ".join(f"{n} by {label}" for label, n in f.masked_by)
    return f"masked: {f.masked} runs where it holds failed another way first ({by}), and tell nothing of it"


def summary_lines(r: Resolved) -> list[str]:
    """The summary, as resolution.md's first section and `crashmatrix resolve`'s output both say it."""
    choice, rec = r.choice, r.choice.recommended
    axes = list(r.run.axes)
    lines = [f"machine: {m.line()}" for m in r.machines]
    if r.machines:
        lines.append(f"the rest from the other nodes ({', '.join(r.run.nodes)}):")
    if rec is None:
        lines.append("run instead: nothing this run can recommend")
    else:
        n = choice.candidates
        which = (
            f"the fastest of the {n} configurations that passed every run and hold no failing conjunction"
            if n > 1
            else "the only configuration that passed every run and holds no failing conjunction"
        )
        if len(choice.tied) > 1:
            which += f"; {tie_text(choice)}, and the tie went to the program's own values"
        lines.append(
            f"run instead: {rec.label(axes)} ({rec.passed} of {rec.runs} runs passed, "
            f"{speed_text(rec, choice.metric)}; {which})"
        )
        lines += [f"  {line}" for line in cost_lines(r)]
    for f in r.findings.failures:
        lines.append(f"cause: {failure_text(f, r.findings)}")
        if fix := remedy(f.kind.signature, f.kind.signal):
            lines.append(f"  what fixes it: {fix}")
    lines += [f"avoid: {avoid_text(s, r.tried)}" for s in r.avoid]
    for u in r.unsure:
        lines.append(f"cannot tell yet: {u.reason}" + (f"; to tell: `{u.command}`" if u.command else ""))
    return lines


def avoid_text(s: Slow, tried: Sequence[Tried] = ()) -> str:
    """`start_method=spawn and num_workers=2: 4.9× the time (first batches 26 s of its 44 s; 4 of 4 runs)`;
    a slowness one run a cell cannot tell says so, with the rerun that can. A change `resolve --try` ran says
    what it measured in place of the estimate."""
    if not s.sure:
        text = f"{s.when()}, perhaps: {s.ratio:.1f}× the time, in 1 run a cell (could be noise; to tell: `{s.command}`)"
    else:
        where = f"{s.where_text()}; " if s.where else ""
        text = f"{s.when()}: {s.ratio:.1f}× the time ({where}{s.slow_runs} of {s.runs} runs)"
    if s.why is not None and s.why.remedies:
        slow_s = s.why.figures.get("slow_s") or s.median_s
        measured = {t.values: t for t in tried if t.conditions == s.conditions}
        text += "; instead: " + "; or ".join(
            measured[r.values].text() if r.values in measured else r.text(slow_s) for r in s.why.remedies
        )
    return text


def tie_text(choice) -> str:
    """How many tied with the fastest, and why: within noise, or too few timed runs to tell."""
    fastest = choice.fastest
    few = fastest is not None and any(speed_untold(c, fastest, choice.metric) == "too few runs" for c in choice.tied)
    if few:
        return (
            f"{len(choice.tied)} could not be told apart from the fastest (fewer than {MIN_TIMED_RUNS} timed runs "
            "a side, or within noise)"
        )
    return f"{len(choice.tied)} were within noise of the fastest"


def cost_lines(r: Resolved) -> list[str]:
    choice, rec, axes = r.choice, r.choice.recommended, list(r.run.axes)
    if rec is None:
        return []
    out = []
    safe = choice.safe
    if safe is not None:
        what = "the safe mode (" + ", ".join(f"{a}={v}" for a, v in safe.axes.items()) + ")"
        if any(c is rec for c in safe.configs):
            out.append(f"it is {what} itself")
        elif safe.best is not None:
            out.append(f"{what}: {cost_text(safe.best, rec, choice.metric)} ({safe.best.label(axes)})")
        else:
            out.append(f"{what}: {safe_failed_text(safe)}")
    if choice.fastest_failing is not None:
        ff = choice.fastest_failing
        out.append(
            f"fastest failing configuration, {ff.label(axes)}: {cost_text(ff, rec, choice.metric)} when it passed"
        )
    elif choice.failing_untimed:
        out.append(f"the {choice.failing_untimed} failing configuration(s) never passed a run: their speed is unknown")
    return out


def safe_failed_text(safe) -> str:
    """Why the safe mode has no time here: its configurations failed, and how."""
    kinds: dict = {}
    for c in safe.configs:
        for kind, n in c.kinds.items():
            kinds[kind.label()] = kinds.get(kind.label(), 0) + n
    how = ", ".join(f"{n} {label}" for label, n in kinds.items())
    return f"no configuration of it passed every run here ({safe.failed_runs} of {safe.runs} runs failed: {how})"


def markdown(r: Resolved) -> str:
    name = r.run.matrix.get("name") or r.shown
    parts = [f"# Resolution: {name}\n", "## Summary\n", *[f"- {line.strip()}" for line in summary_lines(r)]]
    if r.bundles:
        parts.append("- bug reports: " + ", ".join(f"{b.dir}/" for b in r.bundles))
    parts += ["", *_evidence(r), *_causes(r), *_instead(r), *_avoid(r), *_cannot_tell(r), *_bug_reports(r)]
    return "\n".join(parts).rstrip() + "\n"


def _evidence(r: Resolved) -> list[str]:
    run, metric = r.run, r.choice.metric
    axes = list(run.axes)
    facts = run.fingerprint
    machine = ", ".join(f"{k} {facts[k]}" for k in ("host", "kernel", "torch", "gpu") if facts.get(k))
    strategy = run.strategy + (" (a hunt)" if r.findings.source == "hunt" else "")
    head = (
        f"From `{r.shown}`: {len(run.rows)} runs of {len(r.configs)} configurations, strategy {strategy}"
        + (f", on {machine}" if machine else "")
        + "."
    )
    rows = []
    for c in sorted(r.configs, key=lambda c: (not c.clean, c.label(axes)))[:MOST_ROWS]:
        failed = ", ".join(f"{n} {k.label()}" for k, n in c.kinds.most_common()) or "—"
        rows.append([c.label(axes), c.runs, c.passed, failed, _median(c, WALL), _median(c, "steps_per_s")])
    headers = ["configuration", "runs", "passed", "failed", "median wall s", "median steps/s"]
    more = len(r.configs) - MOST_ROWS
    tail = [f"\n({more} more configurations in results.csv)"] if more > 0 else []
    note = (
        f"Speeds are over the runs that passed; fastest is measured by {'wall time' if metric == WALL else 'steps/s'}."
    )
    return ["## Evidence\n", head, "", table(rows, headers, "md"), *tail, "", note, ""]


def _median(c: Config, metric: str) -> str:
    value = c.median(metric)
    return "—" if value is None else f"{value:.3g}"


def _causes(r: Resolved) -> list[str]:
    return _failure_causes(r) + _beyond_failure(r)


def _beyond_failure(r: Resolved) -> list[str]:
    """Findings beyond failure: memory that grows (growth.py), failing or not."""
    from crashmatrix.answers import growth

    lines = growth.finding_lines(r.run.rows, r.run.answer_axes, r.run.directory)
    return ["## Findings beyond failure\n", *(f"- {line}." for line in lines), ""] if lines else []


def _failure_causes(r: Resolved) -> list[str]:
    lines = ["## Causes\n"]
    if not r.findings.failures:
        return lines + ["No run failed.", ""]
    by_kind = {b.kind: b for b in r.bundles}
    for f in r.findings.failures:
        lines.append(f"- {failure_text(f, r.findings)}; {masking_text(f)}.")
        if f.alternatives:
            others = "; ".join(" and ".join(f"{a}={v}" for a, v in alt.items()) for alt in f.alternatives)
            lines.append(f"  The data fit as well: {others}.")
        if fix := remedy(f.kind.signature, f.kind.signal):
            lines.append(f"  What fixes it: {fix}.")
        if f.kind in by_kind:
            lines.append(f"  Bug report: `{by_kind[f.kind].dir}/ISSUE.md`.")
    source = "hunt.json" if r.findings.source == "hunt" else "explain's conjunctions, weighed by hunt's model"
    return lines + ["", f"From {source}; a cause is named at confidence {r.findings.confidence}.", ""]


def _instead(r: Resolved) -> list[str]:
    choice, rec = r.choice, r.choice.recommended
    lines = ["## What to run instead\n"]
    if rec is None:
        return lines + ["Nothing in this run passed every time outside the failing conjunctions.", ""]
    lines += [
        f"`{rec.label(list(r.run.axes))}`: {rec.passed} of {rec.runs} runs passed, {speed_text(rec, choice.metric)}.",
        "",
    ]
    lines += _how(r.applied)
    rule = (
        "The fastest configuration every run of which passed and which holds none of the failing conjunctions; "
        "speeds within noise (medians within 5%, or 0.2 s of wall time, or runs that overlap) or told by fewer "
        f"than {MIN_TIMED_RUNS} timed runs a side count as a tie, "
        f"which goes to the configuration nearest the program's own values ({r.defaults.source()})."
    )
    if len(choice.tied) > 1:
        rule += f" {tie_text(choice)} here."
    lines += [rule, "", "### What it costs against the others\n", _cost_table(r), ""]
    return lines


def _how(applied: Apply | None) -> list[str]:
    if applied is None:
        return []
    lines = ["How to apply it:"]
    if applied.arguments:
        lines.append(f"- the program's own arguments: `{' '.join(applied.arguments)}`")
    lines += [f"- in the program: `{c}`" for c in applied.code]
    lines += [f"- in the environment: `{e}`" for e in applied.environment]
    if applied.interpreter:
        lines.append(f"- the interpreter: `{applied.interpreter}`")
    return lines + [""]


def _cost_table(r: Resolved) -> str:
    choice, rec, axes, metric = r.choice, r.choice.recommended, list(r.run.axes), r.choice.metric
    assert rec is not None
    safe = choice.safe
    rec_is_safe = safe is not None and any(c is rec for c in safe.configs)
    rows = [[rec.label(axes), _median(rec, metric), "1.0×", "recommended" + (", safe mode" if rec_is_safe else "")]]
    listed = {id(rec)}
    for c in choice.alternatives[:MOST_COSTS]:
        rows.append([c.label(axes), _median(c, metric), _ratio(c, rec, metric), "passed every run"])
        listed.add(id(c))
    if safe is not None and safe.best is not None and not rec_is_safe:
        if id(safe.best) not in listed:
            rows.append(
                [safe.best.label(axes), _median(safe.best, metric), _ratio(safe.best, rec, metric), "safe mode"]
            )
        else:
            rows = [row[:3] + [row[3] + ", safe mode"] if row[0] == safe.best.label(axes) else row for row in rows]
    ff = choice.fastest_failing
    if ff is not None:
        rows.append([ff.label(axes), _median(ff, metric), _ratio(ff, rec, metric), "fastest failing (when it passed)"])
    unit = "median wall s" if metric == WALL else "median steps/s"
    text = table(rows, ["configuration", unit, "time against the recommended", ""], "md")
    if safe is None:
        text += "\n\nThis run has no safe mode (num_workers=0, pin_memory=false) to compare."
    elif safe.best is None:
        text += f"\n\nThe safe mode: {safe_failed_text(safe)}."
    if ff is None and choice.failing_untimed:
        text += f"\n\nThe {choice.failing_untimed} failing configuration(s) never passed a run: their speed is unknown."
    return text


def _ratio(c: Config, rec: Config, metric: str) -> str:
    ratio = time_ratio(c, rec, metric)
    if ratio is None:
        return "—"
    untold = speed_untold(c, rec, metric)
    if untold == "too few runs":
        return "cannot be told yet (too few runs)"
    return untold or f"{ratio:.1f}×"


def _avoid(r: Resolved) -> list[str]:
    """What passed but costs: the slow conjunctions, each against the median of every other cell."""
    if not r.avoid:
        return []
    lines = ["## What to avoid\n"]
    lines += [f"- {avoid_text(s, r.tried)}." for s in r.avoid]
    note = "Time against the median wall time of every other cell that passed (`crashmatrix explain` says how)."
    return lines + ["", note, ""]


def _cannot_tell(r: Resolved) -> list[str]:
    if not r.unsure:
        return []
    lines = ["## What this run cannot tell yet\n"]
    for u in r.unsure:
        lines.append(f"- {u.reason}." + (f" To tell: `{u.command}`" if u.command else ""))
    return lines + [""]


def _bug_reports(r: Resolved) -> list[str]:
    if not r.bundles:
        return []
    lines = ["## Bug reports\n", "One folder per failure kind, ready to file upstream:", ""]
    for b in r.bundles:
        files = [
            "ISSUE.md",
            "matrix.yaml" if b.matrix_written else "",
            "collect_env.txt",
            "stacks.txt" if b.has_stacks else "",
        ]
        lines.append(
            f"- `{b.dir}/` ({b.kind.label()}, {b.config.label(list(r.run.axes))}): {', '.join(f for f in files if f)}"
        )
    return lines + [""]
