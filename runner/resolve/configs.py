"""Each configuration of a finished run: its runs, how they ended, and how fast the passing ones were.

A configuration is one set of axis values (a cell); its runs are the rows with those values. `error`
rows (crashmatrix could not start the cell) say nothing about it and are left out. Speed is read from
the runs that passed: `duration_s` (the cell's wall time) or `steps_per_s` (the rate a wall clock saw
while batches came), as medians with the runs' range beside them.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from crashmatrix.cell import spell
from crashmatrix.outcome import FailureKind

WALL = "duration_s"
RATE = "steps_per_s"
# Within noise: medians within this share of the faster one ...
NOISE_SHARE = 0.05
# ... or wall times within this many seconds: a process's start varies by that much on a busy machine
# (measured: the same 2 s cell 0.18 s apart on the 2-core development box) ...
WALL_FLOOR_S = 0.2
# ... or the two configurations' runs overlapping (each one's range, min to max, reaching into the other's).
# Fewer timed runs than this on either side and speed is not told at all: one run each on a busy machine
# read "1.8× the time" once and a tie the next.
MIN_TIMED_RUNS = 2


@dataclass(frozen=True)
class Config:
    values: dict  # axis -> value as the run's rows type it (the matrix's own 4, true, "fork")
    spelled: dict  # axis -> value as results.csv spells it
    cell_id: str
    runs: int  # runs that tell (pass or fail): skip and error rows left out
    passed: int
    skipped: int
    kinds: Counter  # FailureKind -> runs that failed so
    walls: tuple[float, ...]  # duration_s of the passing runs
    rates: tuple[float, ...]  # steps_per_s of the passing runs, where measured

    @property
    def clean(self) -> bool:
        """Every run passed (and there was one)."""
        return self.runs > 0 and self.passed == self.runs and not self.skipped

    @property
    def failing(self) -> bool:
        return bool(self.kinds)

    def label(self, axes: Sequence[str] | None = None) -> str:
        names = axes if axes is not None else list(self.spelled)
        return " ".join(f"{a}={self.spelled[a]}" for a in names if self.spelled.get(a, "") != "")

    def samples(self, metric: str) -> tuple[float, ...]:
        return self.walls if metric == WALL else self.rates

    def median(self, metric: str) -> float | None:
        samples = self.samples(metric)
        return statistics.median(samples) if samples else None

    def span(self, metric: str) -> tuple[float, float] | None:
        samples = self.samples(metric)
        return (min(samples), max(samples)) if samples else None


def configs_of(rows: Sequence[Mapping], axes: Sequence[str]) -> list[Config]:
    """One Config per distinct set of axis values, in the order the rows first show them."""
    groups: dict[tuple, list[Mapping]] = {}
    for row in rows:
        kind = FailureKind.from_row(row)
        if kind.is_run_error:
            continue
        groups.setdefault(tuple(spell(row.get(a, "")) for a in axes), []).append(row)
    return [_config(axes, key, runs) for key, runs in groups.items()]


def _config(axes: Sequence[str], key: tuple, rows: list[Mapping]) -> Config:
    kinds: Counter = Counter()
    walls, rates = [], []
    passed = skipped = 0
    for row in rows:
        kind = FailureKind.from_row(row)
        if kind.is_pass:
            passed += 1
            wall, rate = _number(row.get(WALL)), _number(row.get(RATE))
            if wall is not None:
                walls.append(wall)
            if rate is not None:
                rates.append(rate)
        elif kind.counts_as_failing:
            kinds[kind] += 1
        else:
            skipped += 1
    first = rows[0]
    return Config(
        values={a: first.get(a, "") for a in axes},
        spelled=dict(zip(axes, key)),
        cell_id=str(first.get("cell_id", "")),
        runs=passed + sum(kinds.values()),
        passed=passed,
        skipped=skipped,
        kinds=kinds,
        walls=tuple(walls),
        rates=tuple(rates),
    )


def _number(text) -> float | None:
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if value == value and value >= 0 else None  # NaN is the only value unequal to itself


def metric_for(configs: Sequence[Config]) -> str:
    """steps_per_s where every one of them measured it in each passing run, else wall time."""
    if configs and all(c.rates and len(c.rates) == c.passed for c in configs):
        return RATE
    return WALL


def faster(a: Config, b: Config, metric: str) -> bool:
    """a is faster than b (a median that is missing is slowest)."""
    return speed_key(a, metric) < speed_key(b, metric)


def speed_key(config: Config, metric: str) -> float:
    """Sorts fastest first."""
    median = config.median(metric)
    if median is None:
        return float("inf")
    return median if metric == WALL else -median


def within_noise(a: Config, b: Config, metric: str) -> bool:
    """Whether the two speeds cannot be told apart: within 5% (or 0.2 s of wall), or their runs overlap."""
    ma, mb = a.median(metric), b.median(metric)
    if ma is None or mb is None:
        return False
    if abs(ma - mb) <= NOISE_SHARE * min(ma, mb) or (metric == WALL and abs(ma - mb) <= WALL_FLOOR_S):
        return True
    sa, sb = a.span(metric), b.span(metric)
    both_repeated = len(a.samples(metric)) > 1 and len(b.samples(metric)) > 1
    return bool(both_repeated and sa and sb and sa[0] <= sb[1] and sb[0] <= sa[1])


def too_few_timed(a: Config, b: Config, metric: str) -> bool:
    """Whether either side has fewer than MIN_TIMED_RUNS timed runs: no speed told between them yet."""
    return min(len(a.samples(metric)), len(b.samples(metric))) < MIN_TIMED_RUNS


def speed_untold(a: Config, b: Config, metric: str) -> str:
    """Why the two speeds cannot be told apart ("too few runs", "within noise"), or "" where they can."""
    if a.median(metric) is None or b.median(metric) is None:
        return ""
    if too_few_timed(a, b, metric):
        return "too few runs"
    return "within noise" if within_noise(a, b, metric) else ""


def time_ratio(other: Config, base: Config, metric: str) -> float | None:
    """How many times base's time `other` takes (per run for wall time, per step for a rate)."""
    mo, mb = other.median(metric), base.median(metric)
    if not mo or not mb:
        return None
    return mo / mb if metric == WALL else mb / mo
