"""A bisection's answer for people (summary lines) and for machines (bisect.json)."""

from __future__ import annotations

import math
from collections.abc import Mapping

from crashmatrix.bisect.result import BisectResult

__all__ = ["summary_line", "rate_line", "detail_lines", "as_bisect_json"]


def _name(change: str, values: Mapping[str, object] | None) -> str:
    if values is None or change not in values:
        return change
    return f"{change}={values[change]}"


def _percent(x: float) -> str:
    pct = 100 * x
    if pct >= 1:
        return f"{pct:.0f}%"
    digits = max(1, -math.floor(math.log10(pct)) if pct > 0 else 1)
    return f"{pct:.{digits}f}%"


def summary_line(result: BisectResult, values: Mapping[str, object] | None = None) -> str:
    """One line for people, e.g. ``crash SIGSEGV needs start_method=fork +
    pin_memory=true; undoing any one passes (10/10 clean each); 17 runs``.

    ``values`` maps a change (axis) to its bad value, to print ``axis=value``.
    """
    runs = f"{result.runs} run" + ("" if result.runs == 1 else "s")
    prefix = ""
    if result.partial:
        why = {"max_runs": "run budget spent", "interrupted": "interrupted"}.get(result.stop_reason, result.stop_reason)
        prefix = f"partial ({why}): "
    if result.target is None:
        return f"{prefix}the bad configuration did not fail ({runs})"
    if result.no_change_tried and result.bad_rate is not None:
        rate = result.bad_rate
        return (
            f"{prefix}the bad configuration failed {rate.failures} of {rate.runs} ({result.target.said()}); "
            f"the budget ended before any change was tried ({runs})"
        )
    if result.good_fails:
        return f"{prefix}{result.target.said()} even with every change undone: the good configuration fails too; {runs}"
    names = " + ".join(_name(c, values) for c in result.minimal)
    head = f"{prefix}{result.target.said()} needs {names}"
    if result.partial:
        return f"{head} (not yet minimal); {runs}"
    parts = [head]
    if result.culprits:
        all_clean = all(c.clean == c.runs and not c.others for c in result.culprits)
        counts = {(c.clean, c.runs) for c in result.culprits}
        if all_clean and len(counts) == 1:
            clean, total = counts.pop()
            each = " each" if len(result.culprits) > 1 else ""
            which = "any one" if len(result.culprits) > 1 else "it"
            parts.append(f"undoing {which} passes ({clean}/{total} clean{each})")
        else:
            bits = []
            for c in result.culprits:
                other = "".join(f", {o.said()} {k}/{c.runs}" for o, k in c.others)
                bits.append(f"{_name(c.change, values)} {c.clean}/{c.runs} clean{other}")
            parts.append(f"undoing one: {'; '.join(bits)}; never {result.target.said()}")
    if not result.confirmed:
        parts.append("not confirmed on re-run")
    parts.append(runs)
    return "; ".join(parts)


def rate_line(result: BisectResult) -> str:
    """How flakiness was handled, e.g. ``failure rate 5/10, 10 clean runs needed
    to believe a pass (miss chance <=0.1% per test)``."""
    if result.repeats_given:
        if result.repeats == 1:
            return (
                "repeats=1: each configuration run once, failure rate not estimated "
                "(a flaky failure can make the answer wrong)"
            )
        return f"repeats={result.repeats} given: {result.repeats} clean runs believed a pass"
    if result.bad_rate is None:
        return "failure rate 0: the bad configuration never showed a failure"
    line = f"failure rate {result.bad_rate}"
    pooled = result.pooled_rate
    if pooled is not None and pooled.runs != result.bad_rate.runs:
        line += f" ({pooled} over every failing configuration)"
    line += f", {result.repeats} clean run{'s' if result.repeats != 1 else ''} needed to believe a pass"
    if result.miss_per_test is not None:
        line += f" (miss chance <={_percent(result.miss_per_test)} per test)"
    return line


def detail_lines(result: BisectResult, values: Mapping[str, object] | None = None) -> list[str]:
    """Summary, flakiness, and every other failure seen, one per line."""
    lines = [summary_line(result, values), rate_line(result)]
    if result.seeded:
        lines.append(
            f"{result.seeded} runs of the finished run counted as evidence (not run again, not among the {result.runs})"
        )
    for o in result.others:
        config = " + ".join(_name(c, values) for c in o.changes) or "the good configuration"
        lines.append(f"also seen: {o.observation.said()} x{o.count} with {config}")
    return lines


def as_bisect_json(result: BisectResult, good: Mapping[str, object], bad: Mapping[str, object]) -> dict:
    """The contract's bisect.json object, contract keys first, then details."""
    return {
        "good": dict(good),
        "bad": dict(bad),
        "minimal": {c: bad[c] for c in result.minimal},
        "outcome": result.target.outcome if result.target else None,
        "signal": result.target.signal if result.target else "",
        "runs": result.runs,
        "signature": result.target.signature if result.target else "",
        "counted_from_run": result.seeded,
        "repeats": result.repeats,
        "failure_rate": (
            {"failures": result.bad_rate.failures, "runs": result.bad_rate.runs} if result.bad_rate else None
        ),
        "miss_per_test": result.miss_per_test,
        "strategy": result.strategy,
        "confirmed": result.confirmed,
        "partial": result.partial,
        "stop_reason": result.stop_reason,
        "undo": [
            {"axis": c.change, "tested": list(c.tested), "runs": c.runs, "clean": c.clean} for c in result.culprits
        ],
        "others": [
            {
                "changes": list(o.changes),
                "outcome": o.observation.outcome,
                "signal": o.observation.signal,
                "signature": o.observation.signature,
                "count": o.count,
            }
            for o in result.others
        ],
    }
