"""A bisection's answer for people (summary lines) and for machines (bisect.json); a numeric axis's
boundary too."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

from crashmatrix.bisect.memory_scale import MemoryScale
from crashmatrix.bisect.result import BisectResult, Boundary
from crashmatrix.cell import spell
from crashmatrix.outcome import FailureKind

__all__ = [
    "summary_line",
    "rate_line",
    "detail_lines",
    "as_bisect_json",
    "boundary_line",
    "boundary_detail",
    "memory_lines",
    "as_boundary_json",
    "megabytes",
]


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


# ---- a numeric axis's boundary (crashmatrix.bisect.boundary)

MEMORY_WORDS = {"rss_mb": "peak RSS", "gpu_mb": "peak GPU memory"}
FIT_WORDS = {"rss_mb": "of RAM", "gpu_mb": "of GPU memory"}


def megabytes(mb: float) -> str:
    """`68 MB`, `12 GB`, `1.5 GB`."""
    if mb < 1024:
        return f"{mb:.0f} MB"
    return f"{mb / 1024:.1f}".removesuffix(".0") + " GB"


def _at(b: Boundary, value: object) -> str:
    kinds = b.of(value)
    if kinds and all(k.is_pass for k in kinds):
        return "passes"
    return "did not show it (" + ", ".join(f"{k.label()} x{n}" for k, n in Counter(kinds).items()) + ")"


def boundary_line(b: Boundary, table_target: FailureKind, scales: Sequence[MemoryScale]) -> str:
    """`batch=48 passes, batch=49 fails: crash SIGSEGV; peak RSS 68 MB at 48`."""
    a = b.axis
    if b.target is None:
        runs = len(b.of(b.listed[1]))
        return f"{a}={spell(b.listed[1])} did not show {table_target.said()} in {runs} runs here"
    prefix = ""
    if b.partial:
        why = {"max_runs": "run budget spent", "interrupted": "interrupted"}.get(b.stop_reason, b.stop_reason)
        prefix = f"partial ({why}): "
    head = f"{prefix}{a}={spell(b.passes)} {_at(b, b.passes)}, {a}={spell(b.fails)} fails: {b.target.label()}"
    if b.note:
        head = f"{a} is not a boundary of {b.target.label()}: {b.note}"
    peaks = [
        f"{MEMORY_WORDS[s.kind]} " + ", ".join(f"{megabytes(s.by_value[v])} at {spell(v)}" for v in found)
        for s in scales
        if (found := [v for v in (b.passes, b.fails) if v in s.by_value])
    ]
    return "; ".join([head, *peaks])


def boundary_detail(b: Boundary, held: str) -> str:
    """Where the search started, what it ran, and how flakiness was handled."""
    where = f"narrowed from the listed {spell(b.listed[0])} and {spell(b.listed[1])}"
    where += f" ({held} held)" if held else ""
    if b.tolerance is not None:
        where += f" to within {b.tolerance:.3g}"
    runs = f"{b.runs} run" + ("" if b.runs == 1 else "s")
    if b.seeded:
        runs += f" (and {b.seeded} of the table counted)"
    if b.repeats_given:
        flaky = f"repeats={b.repeats}" + (
            ": each value run once (a flaky failure can make the answer wrong)" if b.repeats == 1 else " given"
        )
    elif b.rate is not None:
        flaky = f"failure rate {b.rate}, {b.repeats} clean run{'s' if b.repeats != 1 else ''} believed a pass"
        if b.miss_per_test is not None:
            flaky += f" (miss chance <={_percent(b.miss_per_test)} per test)"
    else:
        flaky = ""
    return "; ".join(part for part in (f"{where} in {runs}", flaky) if part)


def memory_lines(axis: str, scales: Sequence[MemoryScale], fits: Mapping[str, float], integer: bool) -> list[str]:
    """`peak RSS grows 1.0 MB per unit of batch (16: 36 MB, 32: 52 MB); batch ≤ 40 fits in 60 MB of RAM`."""
    lines = []
    for s in scales:
        if s.mb_per_unit is None:
            continue
        shown = ", ".join(f"{spell(v)}: {megabytes(mb)}" for v, mb in s.by_value.items())
        line = f"{MEMORY_WORDS[s.kind]} grows {s.mb_per_unit:.3g} MB per unit of {axis} ({shown})"
        if s.kind in fits:
            top = s.largest_fitting(fits[s.kind], integer)
            budget = f"{megabytes(fits[s.kind])} {FIT_WORDS[s.kind]}"
            line += (
                f"; {axis} ≤ {spell(top)} fits in {budget} at this memory per unit"
                if top is not None
                else f"; no {axis} fits in {budget} at this memory per unit"
            )
        lines.append(line)
    for kind in fits:
        if not any(s.kind == kind and s.mb_per_unit is not None for s in scales):
            lines.append(f"--fit-{kind.replace('_', '-')}: {MEMORY_WORDS[kind]} was not measured at two values")
    return lines


def as_boundary_json(
    b: Boundary, held: Mapping[str, object], scales: Sequence[MemoryScale], fits: Mapping[str, float], integer: bool
) -> dict:
    """bisect.json's `boundary` object."""
    target = b.target
    return {
        "axis": b.axis,
        "passes": None if b.note else b.passes,  # a note: no value was seen to pass for sure
        "fails": b.fails,
        "outcome": target.outcome if target else None,
        "signal": target.signal if target else "",
        "signature": target.signature if target else "",
        "runs": b.runs,
        "counted_from_run": b.seeded,
        "exact": b.exact,
        "tolerance": b.tolerance,
        "listed": list(b.listed),
        "held": {a: spell(v) for a, v in held.items()},
        "repeats": b.repeats,
        "failure_rate": {"failures": b.rate.failures, "runs": b.rate.runs} if b.rate else None,
        "partial": b.partial,
        "stop_reason": b.stop_reason,
        "note": b.note,
        "tested": {
            spell(v): {"runs": len(kinds), "passed": sum(k.is_pass for k in kinds), "failed": kinds.count(target)}
            for v, kinds in b.observations
        },
        "memory": {s.kind: {spell(v): mb for v, mb in s.by_value.items()} for s in scales},
        "mb_per_unit": {s.kind: s.mb_per_unit for s in scales if s.mb_per_unit is not None},
        "fit": {
            kind: {"budget_mb": budget, "largest": s.largest_fitting(budget, integer)}
            for kind, budget in fits.items()
            for s in scales
            if s.kind == kind and s.mb_per_unit is not None
        },
    }
