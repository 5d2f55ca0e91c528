"""compare's speed: the cells that passed in both runs and whose wall time moved, by cell and by axis value.

The rule, for one cell set against the first run (A) in a later run (B):
- every run of the cell passed, in both runs: a failing run's duration says how fast it failed;
- the medians of its runs' duration_s, a and b, differ by more than 20%: max(a, b) / min(a, b) > 1.2;
- beyond its repeats' spread: the ranges [fastest, slowest] of its runs in A and in B do not overlap
  (with one run per cell a range is a point, and the 20% alone decides);
- and by more than MIN_SECONDS: process start-up jitter on a busy machine moves a cell of a tenth of a
  second by more than 20%, and that is not its speed. A second, as explain's slow cells (answers/slow.py): a
  fresh clone's suite on the 2-core box, five workers, saw one run's 0.18 s cell take 0.51 s in the next.
By axis value: the cells holding the value that passed in both runs; the value is shown when more than half
of them were reported, all the same way (slower in B, or faster), with the median of their ratios b/a.
With more than two runs, each run after the first is set against the first.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from crashmatrix.cell import cell_and_node
from crashmatrix.outcome import is_pass

RATIO = 1.2  # more than 20% slower or faster
MIN_SECONDS = 1.0  # differences under this are start-up jitter, and no one waits on them
RULE = (
    "every run of the cell passed in both runs; the medians of duration_s differ by more than 20%"
    f" (max/min > {RATIO}) and by more than {MIN_SECONDS} s; and the ranges [fastest, slowest] of its runs"
    " in the two runs do not overlap"
)


@dataclass(frozen=True)
class Timing:
    """The wall times (duration_s) of one cell's runs in one run directory, every one of which passed."""

    seconds: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def low(self) -> float:
        return min(self.seconds)

    @property
    def high(self) -> float:
        return max(self.seconds)

    def shown(self) -> str:
        """'0.52 s', or with repeats '0.52 s (0.50–0.55)'."""
        if len(self.seconds) == 1:
            return f"{self.median:.3g} s"
        return f"{self.median:.3g} s ({self.low:.3g}–{self.high:.3g})"


@dataclass(frozen=True)
class SpeedChange:
    """A cell reported: its medians a (the first run) and b (the later one)."""

    cell_id: str
    values: dict
    run: str  # the later run's label, B, C, ...
    a: Timing
    b: Timing

    @property
    def ratio(self) -> float:
        return self.b.median / self.a.median

    @property
    def slower(self) -> str:
        return self.run if self.ratio > 1 else "A"

    def to_json(self) -> dict:
        return {
            "cell_id": self.cell_id,
            "values": self.values,
            "a": round(self.a.median, 4),
            "b": round(self.b.median, 4),
            "ratio": round(self.ratio, 4),
            "run": self.run,
            "slower": self.slower,
            "a_range": [self.a.low, self.a.high],
            "b_range": [self.b.low, self.b.high],
        }


@dataclass(frozen=True)
class ValueSpeed:
    """One axis value where most of its cells moved the same way."""

    axis: str
    value: str
    cells: int  # its cells that passed in both runs
    slower: int  # of which reported slower in the later run
    faster: int
    ratio: float  # the median of its cells' b/a

    def to_json(self, run: str) -> dict:
        return {
            "run": run,
            "axis": self.axis,
            "value": self.value,
            "cells": self.cells,
            "slower": self.slower,
            "faster": self.faster,
            "ratio": round(self.ratio, 4),
        }


@dataclass(frozen=True)
class SpeedComparison:
    """A later run set against the first: its cells that passed in both, those reported, the axis values."""

    run: str
    compared: int
    changes: tuple[SpeedChange, ...]
    by_value: tuple[ValueSpeed, ...]


def timings(rows: Sequence[dict]) -> dict[str, Timing]:
    """cell_id -> its Timing, for the cells every run of which passed and says its duration."""
    by_cell: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_cell[cell_and_node(row)].append(row)
    out = {}
    for cell_id, runs in by_cell.items():
        if all(is_pass(r.get("outcome", "")) and r.get("duration_s") not in (None, "") for r in runs):
            seconds = tuple(float(r["duration_s"]) for r in runs)
            if min(seconds) > 0:
                out[cell_id] = Timing(seconds)
    return out


def moved(a: Timing, b: Timing) -> bool:
    """The rule of the module doc: more than 20%, more than MIN_SECONDS, and the ranges apart."""
    low, high = sorted((a.median, b.median))
    apart = a.high < b.low or b.high < a.low
    return high / low > RATIO and high - low > MIN_SECONDS and apart


def compare_speed(
    ta: dict[str, Timing],
    tb: dict[str, Timing],
    run: str,
    axes: Sequence[str],
    values_of: Callable[[str], dict],
    order: Callable[[str], Any],
) -> SpeedComparison:
    """Set the later run's timings (tb, of run `run`) against the first's (ta). values_of and order: compare's
    axis values and sort key of a cell id."""
    both = sorted((c for c in ta if c in tb), key=order)
    values = {c: values_of(c) for c in both}
    changes = tuple(SpeedChange(c, values[c], run, ta[c], tb[c]) for c in both if moved(ta[c], tb[c]))
    return SpeedComparison(run, len(both), changes, _by_value(both, values, changes, ta, tb, axes))


def _by_value(both, values, changes, ta, tb, axes) -> tuple[ValueSpeed, ...]:
    reported = {c.cell_id: c for c in changes}
    out = []
    for axis in axes:
        cells_of: dict[str, list[str]] = defaultdict(list)
        for cell_id in both:
            cells_of[values[cell_id][axis]].append(cell_id)
        for value, cells in cells_of.items():
            slower = sum(1 for c in cells if c in reported and reported[c].ratio > 1)
            faster = sum(1 for c in cells if c in reported and reported[c].ratio < 1)
            if max(slower, faster) * 2 > len(cells) and min(slower, faster) == 0:
                ratio = statistics.median(tb[c].median / ta[c].median for c in cells)
                out.append(ValueSpeed(axis, value, len(cells), slower, faster, ratio))
    return tuple(out)


# --- output -------------------------------------------------------------------


def speed_lines(speeds: Sequence[SpeedComparison], axes: Sequence[str], fmt: str) -> list[str]:
    """compare's speed section for people (md, github): per later run, the cells, then the axis values."""
    from crashmatrix.text import table

    lines = []
    for sp in speeds:
        if not sp.changes:
            lines += [
                f"Speed: no cell of the {sp.compared} that passed in A and {sp.run} moved by more than 20% beyond"
                " its repeats' spread.",
                "",
            ]
            continue
        slower = sum(1 for c in sp.changes if c.ratio > 1)
        lines += [
            f"## Speed: {len(sp.changes)} of {sp.compared} cells that passed in A and {sp.run} moved"
            f" ({slower} slower in {sp.run}, {len(sp.changes) - slower} slower in A)",
            "",
        ]
        rows = [
            [c.cell_id] + [c.values.get(a, "") for a in axes] + [c.a.shown(), c.b.shown(), f"{c.ratio:.2f}", c.slower]
            for c in sp.changes
        ]
        headers = ["cell", *axes, "A", sp.run, f"{sp.run}/A", "slower"]
        lines += [table(rows, headers, fmt, numparse=False), ""]
        if sp.by_value:
            rows = [
                [v.axis, v.value, f"{max(v.slower, v.faster)} of {v.cells}", f"{v.ratio:.2f}", _slower_word(v, sp.run)]
                for v in sp.by_value
            ]
            lines += [
                "By axis value (where most of its cells moved the same way):",
                "",
                table(rows, ["axis", "value", "cells moved", f"median {sp.run}/A", "slower"], fmt, numparse=False),
                "",
            ]
        lines += [f"Reported when {RULE}.", ""]
    return lines


def _slower_word(v: ValueSpeed, run: str) -> str:
    return run if v.slower else "A"


def csv_columns(labels: Sequence[str]) -> list[str]:
    """The columns compare --format csv adds for speed: each run's median wall time, each later run's ratio."""
    return [f"duration_{s.lower()}" for s in labels] + [f"ratio_{s.lower()}" for s in labels[1:]]


def csv_cells(cell_id: str, timed: Sequence[dict[str, Timing]]) -> list[str]:
    """A speed row's added columns: each run's median wall time (empty where a run of the cell did not
    pass), then each later run's ratio to the first."""
    medians = [timing[cell_id].median if cell_id in timing else None for timing in timed]
    ratios = [b / medians[0] if b is not None and medians[0] else None for b in medians[1:]]
    return ["" if x is None else f"{x:.4g}" for x in medians + ratios]
