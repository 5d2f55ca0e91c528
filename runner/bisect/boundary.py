"""Narrowing a numeric axis to its boundary: the value nearest the failure that passes and the nearest
that fails, by binary search between two values a table gave, flaky-aware as delta debugging is.

The caller injects the test, ``run_value(value) -> FailureKind``: one real run of the line's cell with
the axis at that value (values the matrix never listed included). A value fails when a run shows the
target failure; it passes when `n` runs in a row did not (n from the failure's pooled rate, or
``repeats``), and the value left as `passes` is topped up to the final n before it is said. Integers
narrow to adjacent values; floats to ``tolerance`` (default: a hundredth of the listed gap), each
midpoint rounded to the fewest decimals that keep it inside. ``max_runs`` and Ctrl-C end with a partial
answer (``BoundaryInterrupted``). Pure Python (no processes), tested with predicates whose boundary is
known. Why and how: docs/bisect.md.
"""

from __future__ import annotations

import concurrent.futures as cf
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from crashmatrix.bisect.delta_debug import (
    DEFAULT_ESTIMATE_RUNS,
    DEFAULT_MISS_CHANCE,
    ESTIMATE_FAILURES,
    ESTIMATE_MAX,
    PER_TEST_MISS_MAX,
)
from crashmatrix.bisect.failure_rate import (
    FailureRate,
    miss_chance_of,
    pooled_rate,
    runs_to_believe_pass,
)
from crashmatrix.bisect.result import Boundary, BoundaryInterrupted
from crashmatrix.bisect.run_cache import BudgetExhausted
from crashmatrix.outcome import FailureKind

__all__ = ["narrow", "midpoint", "RunValue", "FLOAT_STEPS"]

RunValue = Callable[[object], FailureKind]
FLOAT_STEPS = 100  # a float axis narrows to this fraction of the listed gap


@dataclass(frozen=True)
class _Settings:
    repeats: int | None
    max_runs: int | None
    jobs: int
    estimate_runs: int
    miss_chance: float
    integer: bool
    tolerance: float | None


def midpoint(lo: float, hi: float, integer: bool) -> float:
    """A value strictly between lo and hi (an integer for an integer axis; a float with few decimals)."""
    if integer:
        return (int(lo) + int(hi)) // 2
    mid = (lo + hi) / 2
    for decimals in range(16):
        rounded = round(mid, decimals)
        if min(lo, hi) < rounded < max(lo, hi) and abs(rounded - mid) <= abs(hi - lo) / 4:
            return rounded
    return mid


class _Narrowing:
    """One search: the runs of each value (the table's first), the target, n, and lo/hi as they close."""

    def __init__(self, passes, fails, run_value: RunValue, settings: _Settings, target: FailureKind):
        self.lo, self.hi = passes, fails
        self.listed = (passes, fails)
        self.run_value, self.settings, self.target = run_value, settings, target
        self.observations: dict[float, list[FailureKind]] = {}
        self.runs = self.seeded = 0
        self.reproduced = False
        self.note = ""
        self.pool = cf.ThreadPoolExecutor(max_workers=settings.jobs) if settings.jobs > 1 else None
        gap = abs(fails - passes) if settings.integer else abs(fails - passes) / self._tolerance()
        self.tests = 1 + max(1, math.ceil(math.log2(max(gap, 2))))  # the bisection's steps and the final pass

    def _tolerance(self) -> float:
        tol = self.settings.tolerance
        return tol if tol is not None else abs(self.listed[1] - self.listed[0]) / FLOAT_STEPS

    def seed(self, seeded: Mapping[float, Sequence[FailureKind]]) -> None:
        for value, kinds in seeded.items():
            self.observations.setdefault(value, []).extend(kinds)
            self.seeded += len(kinds)

    def shows(self, value) -> bool:
        return self.target in self.observations.get(value, ())

    def run(self, value, times: int) -> None:
        """`times` runs of value (at most `jobs` at once), recorded in order; stops at the budget."""
        room = times if self.settings.max_runs is None else min(times, self.settings.max_runs - self.runs)
        if room <= 0:
            raise BudgetExhausted()
        self.runs += room
        if self.pool is None:
            kinds = [self.run_value(value) for _ in range(room)]
        else:
            kinds = [f.result() for f in [self.pool.submit(self.run_value, value) for _ in range(room)]]
        for kind in kinds:
            if not isinstance(kind, FailureKind):
                raise TypeError(f"run_value must return a FailureKind, got {kind!r}")
        self.observations.setdefault(value, []).extend(kinds)

    def rate(self) -> FailureRate:
        """The failure's rate: every run of every value that showed it, pooled (as delta debugging pools)."""
        return pooled_rate(self.observations.values(), self.target)

    def n_needed(self) -> int:
        """Clean runs that make a pass: `repeats`, or the conservative count for the pooled rate. Every
        midpoint pays it, not only the value said to pass at the end: a midpoint above the boundary
        wrongly believed after a plain estimate's few runs would be topped up from a lucky start, which
        doubled the wrong answers at a 10% failure rate (bench/bench_boundary.py)."""
        if self.settings.repeats is not None:
            return self.settings.repeats
        return runs_to_believe_pass(self.rate(), self.miss_per_test())

    def miss_per_test(self) -> float:
        return min(PER_TEST_MISS_MAX, self.settings.miss_chance / self.tests)

    def reproduce(self) -> None:
        """The table's failing value shows the target here (up to `repeats` runs), and its rate is known."""
        fails = self.listed[1]
        if self.settings.repeats is not None:
            while not self.shows(fails) and len(self.observations.get(fails, ())) < self.settings.repeats:
                self.run(fails, 1)
            self.reproduced = self.shows(fails)
            return
        while True:
            rate = self.rate()
            own = len(self.observations.get(fails, ()))
            sampled = rate.runs >= self.settings.estimate_runs and rate.failures >= ESTIMATE_FAILURES
            if (self.shows(fails) and sampled) or own >= max(self.settings.estimate_runs, ESTIMATE_MAX):
                break
            self.run(fails, min(self.settings.jobs, max(1, self.settings.estimate_runs - rate.runs)))
        self.reproduced = self.shows(fails)

    def decide(self, value) -> bool:
        """True when value shows the target; False once it has `n` runs without it."""
        while not self.shows(value):
            have = sum(1 for k in self.observations.get(value, ()) if k != self.target)
            need = self.n_needed() - have
            if need <= 0:
                return False
            self.run(value, min(self.settings.jobs, need))
        return True

    def close(self) -> bool:
        if self.settings.integer:
            return abs(self.hi - self.lo) <= 1
        return abs(self.hi - self.lo) <= self._tolerance()

    def bisect(self) -> None:
        while not self.close():
            mid = midpoint(self.lo, self.hi, self.settings.integer)
            if self.decide(mid):
                self.hi = mid
            else:
                self.lo = mid

    def search(self) -> None:
        self.reproduce()
        if not self.reproduced:
            return
        while True:
            self.bisect()
            # the value said to pass: topped up to the final n (its table runs, or the search's, may be fewer)
            if not self.decide(self.lo):
                return
            if self.lo == self.listed[0]:
                self.hi = self.lo
                self.note = f"it shows at {self.lo} too, which passed in the table"
                return
            self.hi, self.lo = self.lo, self._believed_pass_below(self.lo)

    def _believed_pass_below(self, value):
        """The value nearest `value`, on the passing side, that has not shown the target."""
        side = [v for v in self.observations if not self.shows(v) and (v < value) == (self.listed[0] < value)]
        return min(side, key=lambda v: abs(v - value)) if side else self.listed[0]

    def result(self, stop_reason: str = "") -> Boundary:
        rate = self.rate()
        given = self.settings.repeats is not None
        n = self.n_needed() if (given or rate.failures) else 0
        return Boundary(
            axis="",
            passes=self.lo,
            fails=self.hi,
            listed=self.listed,
            target=self.target if self.shows(self.listed[1]) else None,
            exact=self.close() and not stop_reason and not self.note,
            tolerance=None if self.settings.integer else self._tolerance(),
            runs=self.runs,
            seeded=self.seeded,
            repeats=n,
            repeats_given=given,
            rate=rate if rate.runs else None,
            miss_per_test=None if given or not rate.failures else miss_chance_of(rate, n),
            partial=bool(stop_reason),
            stop_reason=stop_reason,
            observations=tuple((v, tuple(ks)) for v, ks in sorted(self.observations.items())),
            note=self.note,
        )

    def shut(self, wait: bool) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=wait, cancel_futures=not wait)
            self.pool = None


def narrow(
    axis: str,
    passes: float,
    fails: float,
    run_value: RunValue,
    target: FailureKind,
    *,
    integer: bool = True,
    tolerance: float | None = None,
    seeded: Mapping[float, Sequence[FailureKind]] | None = None,
    repeats: int | None = None,
    max_runs: int | None = None,
    jobs: int = 1,
    estimate_runs: int = DEFAULT_ESTIMATE_RUNS,
    miss_chance: float = DEFAULT_MISS_CHANCE,
) -> Boundary:
    """The boundary of `target` on `axis` between `passes` (a value that passed) and `fails` (one that
    showed `target`), either way round. ``seeded``: the table's runs by value (evidence, never run again,
    not in ``runs``); ``repeats``, ``max_runs``, ``jobs``, ``miss_chance`` as crashmatrix.bisect.delta_debug's.
    Raises BoundaryInterrupted (carrying ``.result``) on Ctrl-C."""
    if passes == fails:
        raise ValueError(f"passes and fails must differ, got {passes} twice")
    if integer and not (float(passes).is_integer() and float(fails).is_integer()):
        raise ValueError(f"an integer axis needs integer ends, got {passes} and {fails}")
    settings = _Settings(repeats, max_runs, jobs, estimate_runs, miss_chance, integer, tolerance)
    search = _Narrowing(passes, fails, run_value, settings, target)
    search.seed(seeded or {})
    try:
        search.search()
        answer = search.result()
    except BudgetExhausted:
        answer = search.result("max_runs")
    except KeyboardInterrupt:
        search.shut(wait=False)
        raise BoundaryInterrupted(_named(search.result("interrupted"), axis)) from None
    finally:
        search.shut(wait=True)
    return _named(answer, axis)


def _named(boundary: Boundary, axis: str) -> Boundary:
    return replace(boundary, axis=axis)
