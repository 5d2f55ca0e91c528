"""How a line's peak memory scales with a numeric axis, and the largest value that fits a budget (pure).

From results.csv rows (the table's line and the bisect's own runs): each value's peak (the median of its
runs that measured one: `peak_rss_mb` for the process, `peak_gpu_mb` for torch's CUDA memory), a
least-squares line through the values whose runs passed (a run that failed stopped short of its peak),
and from that line the largest value whose memory stays within a budget (`--fit-gpu-mb`, `--fit-rss-mb`).
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from crashmatrix.outcome import FailureKind

__all__ = ["MemoryScale", "COLUMNS", "scale_of", "number"]

COLUMNS = {"rss_mb": "peak_rss_mb", "gpu_mb": "peak_gpu_mb"}  # the name bisect.json uses -> the column


def number(text: object, integer: bool) -> int | float | None:
    """A value or a figure as results.csv writes it (or typed already); None where empty or not a number."""
    if isinstance(text, bool):
        return None
    try:
        value = float(text)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    if math.isnan(value):
        return None
    return int(value) if integer and value.is_integer() else value


@dataclass(frozen=True)
class MemoryScale:
    """One kind of memory along the axis: `by_value` (value -> median peak MB, where measured) and the
    least-squares MB per unit (`mb_per_unit`, `base_mb` at 0) of the values that passed; None with fewer
    than two of them."""

    kind: str  # "rss_mb" | "gpu_mb"
    by_value: dict = field(hash=False)
    mb_per_unit: float | None = None
    base_mb: float | None = None

    def largest_fitting(self, budget_mb: float, integer: bool) -> int | float | None:
        """The largest value whose fitted memory is within budget_mb; None where memory does not grow with
        the axis (nothing to fit) or no value >= 0 fits."""
        if self.mb_per_unit is None or self.base_mb is None or self.mb_per_unit <= 0:
            return None
        top = (budget_mb - self.base_mb) / self.mb_per_unit
        if top < 0:
            return None
        if integer:
            return math.floor(top + 1e-9)
        digits = max(0, 2 - math.floor(math.log10(top))) if top > 0 else 0
        return math.floor(top * 10**digits) / 10**digits


def _least_squares(points: list[tuple[float, float]]) -> tuple[float, float] | None:
    xs = [x for x, _ in points]
    if len(set(xs)) < 2:
        return None
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(y for _, y in points)
    sxx = sum((x - mean_x) ** 2 for x in xs)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / sxx
    return slope, mean_y - slope * mean_x


def scale_of(rows: Iterable[Mapping], axis: str, kind: str, integer: bool) -> MemoryScale | None:
    """The scale of one kind of memory over rows of one line; None where no run measured it."""
    column = COLUMNS[kind]
    measured: dict = defaultdict(list)
    passed: dict = defaultdict(list)
    for row in rows:
        value, mb = number(row.get(axis), integer), number(row.get(column), False)
        if value is None or mb is None:
            continue
        measured[value].append(mb)
        if FailureKind.from_row(row).is_pass:
            passed[value].append(mb)
    if not measured:
        return None
    by_value = {v: round(statistics.median(mbs), 1) for v, mbs in sorted(measured.items())}
    fitted = _least_squares([(float(v), statistics.median(mbs)) for v, mbs in passed.items()])
    if fitted is None:
        return MemoryScale(kind, by_value)
    return MemoryScale(kind, by_value, fitted[0], fitted[1])
