"""How often a flaky configuration fails, and how many clean runs it takes to believe a pass.

A bisection (crashmatrix.bisect.delta_debug) believes "this configuration passes" only after
n runs without the target failure. n comes from the failure rate p of the
configurations known to fail: the smallest n for which a configuration failing
at that rate shows n clean runs in a row with a chance of at most the miss
allowed per test. That chance is taken as the larger of two estimates:
``(1 - p_low) ** n`` with p_low a Wilson lower bound on the pooled rate (a small
sample that happened to fail often must not talk us into a small n), and the
Bayesian predictive chance under a uniform prior (which keeps n honest when
nearly every pooled run failed, where a Wilson bound is too trusting).
Pure arithmetic: no runs, no threads.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "FailureRate",
    "WILSON_Z",
    "clean_runs_needed",
    "miss_chance_of",
    "pooled_rate",
    "predictive_clean_chance",
    "predictive_runs_needed",
    "runs_to_believe_pass",
    "wilson_lower",
]

# Width of the Wilson lower bound on the pooled failure rate, for final verdicts.
# A one-sided ~76% bound: wider bounds buy exactness no caller asked for (z = 1
# left 0.3-0.5% misses where 1% was allowed, at 63 runs for a 3-of-7 bug at
# p = 0.5); narrower ones overshoot 1% at low failure rates. The trade-off table
# of bench/bench_bisect.py shows both sides (it sets this name to compare).
WILSON_Z = 0.7


@dataclass(frozen=True)
class FailureRate:
    """Target failures among runs of configurations known to fail."""

    failures: int
    runs: int
    lower: float  # conservative (Wilson lower bound) estimate of the rate

    @property
    def estimate(self) -> float:
        return self.failures / self.runs if self.runs else 0.0

    def __str__(self) -> str:
        return f"{self.failures}/{self.runs}"


def wilson_lower(failures: int, runs: int, z: float | None = None) -> float:
    """Lower end of the Wilson score interval for a binomial proportion."""
    z = WILSON_Z if z is None else z
    if runs <= 0:
        return 0.0
    phat = failures / runs
    z2 = z * z
    centre = phat + z2 / (2 * runs)
    margin = z * math.sqrt(phat * (1 - phat) / runs + z2 / (4 * runs * runs))
    return max(0.0, (centre - margin) / (1 + z2 / runs))


def predictive_clean_chance(failures: int, runs: int, clean: int) -> float:
    """Chance of ``clean`` passes in a row from a configuration that fails at the
    rate seen in ``failures`` of ``runs``, averaged over that rate's posterior
    under a uniform prior: E[(1 - p) ** clean] for p ~ Beta(F + 1, N - F + 1)."""
    a, b = failures + 1, runs - failures + 1
    log_chance = 0.0
    for i in range(clean):
        log_chance += math.log((b + i) / (a + b + i))
    return math.exp(log_chance)


def predictive_runs_needed(failures: int, runs: int, miss: float, most: int = 10_000) -> int:
    """Smallest n with predictive_clean_chance(failures, runs, n) <= miss."""
    a, b = failures + 1, runs - failures + 1
    log_miss, log_chance, n = math.log(miss), 0.0, 0
    while log_chance > log_miss and n < most:
        log_chance += math.log((b + n) / (a + b + n))
        n += 1
    return max(1, n)


def clean_runs_needed(p: float, miss: float) -> int:
    """Smallest n with (1 - p) ** n <= miss: clean runs before believing a pass."""
    if p >= 1.0:
        return 1
    if p <= 0.0:
        raise ValueError("failure rate must be positive")
    return max(1, math.ceil(math.log(miss) / math.log1p(-p) - 1e-9))


def runs_to_believe_pass(rate: FailureRate, miss: float) -> int:
    """The conservative n: both the Wilson bound and the predictive chance at most ``miss``."""
    by_bound = clean_runs_needed(rate.lower if rate.lower > 0.0 else 1.0 / (rate.runs + 1), miss)
    return max(by_bound, predictive_runs_needed(rate.failures, rate.runs, miss))


def miss_chance_of(rate: FailureRate, clean: int) -> float:
    """The chance that a configuration failing at ``rate`` shows ``clean`` passes in a row (larger estimate)."""
    return max((1 - rate.lower) ** clean, predictive_clean_chance(rate.failures, rate.runs, clean))


def pooled_rate(samples: Iterable[Sequence[object]], target: object) -> FailureRate:
    """Every run of every configuration that showed ``target`` at least once, pooled."""
    failures = runs = 0
    for observations in samples:
        hits = observations.count(target)  # the search asks this at every step: count() is C, not a loop
        if hits:
            failures += hits
            runs += len(observations)
    # every run of the pool ends a sequence stopped at a failure (a test stops
    # at its first target failure, the estimate at its 4th), which biases
    # failures/runs upwards; leaving one failure out is the classic fix
    # (the unbiased estimate under inverse sampling is (F - 1) / (N - 1))
    lower = wilson_lower(failures - 1, runs - 1) if runs > 1 else 0.0
    return FailureRate(failures, runs, lower)
