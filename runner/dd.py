"""Delta debugging over axis changes: the 1-minimal set of changes from a good
configuration that still shows the bad configuration's failure, flaky-aware.

The caller injects the test, ``run_once(changes) -> Observation``: it applies the
given subset of changes to the good configuration, runs it once for real and
says what happened. Everything here is pure Python (no torch, no engine), so the
algorithm is tested with pure predicates whose minimal answer is known.

How a bisection goes (``bisect``):

1. Failure identity. The bad configuration (all changes applied) is run; what it
   did (outcome word + signal + signature) is the *target*. A test "fails" only when it shows
   that same target; any other failure (a timeout when the target is
   ``crash SIGSEGV``) is not the target: it is recorded in ``result.others`` and
   the test counts as "target not reproduced".
2. Flakiness. One observed target failure proves failure (we assume the target
   never shows up in a configuration that really passes). A pass is believed only
   after ``n`` runs without the target. With ``repeats=None`` (the default) the
   bad configuration is run at least ``estimate_runs`` (8) times, and on until it
   has failed 4 times (at most 30 runs), to estimate its failure rate p. Every
   run of every configuration that showed the target is pooled into that
   estimate as the search goes. While searching, n comes from the plain estimate
   (a 1% miss per test); before the answer is given, every "undoing X passes"
   test is topped up (cached runs count) to the final n: the smallest n for
   which the chance that a configuration failing at the pooled rate shows n clean
   runs in a row is at most ``min(1%, miss_chance / T)``. That chance is taken as
   the larger of two estimates: ``(1 - p_low) ** n`` with p_low a Wilson lower
   bound on the pooled rate (a small sample that happened to fail often must not
   talk us into a small n), and the Bayesian predictive chance under a uniform
   prior (which keeps n honest when nearly every pooled run failed, where a Wilson
   bound is too trusting). T is the number of tests that could have been wrongly
   believed (removals that went through, plus one), so by the union bound the
   whole answer is exact with probability about ``1 - miss_chance`` (99%). The
   bound's width (WILSON_Z) is calibrated by simulation, bench/bench_bisect.py:
   the realized miss stays under 1% for failure rates 0.1 to 0.9.
   A top-up that shows the target puts X back on trial.
   A bad configuration that fails every time costs a few clean runs per pass
   (3 after 8/8), not one: eight straight failures do not prove p = 1.
   ``repeats=N`` fixes n and skips the estimation (the bad configuration is run
   until it fails, at most N times); ``repeats=1`` is classic deterministic delta
   debugging (one run per configuration, no confirmation re-run: the answer's own
   run during the search is its evidence), which finds 3 culprits among 7
   changes in at most 8 runs including the bad run.
3. Search. Few changes (<= ONE_AT_A_TIME_MAX) or a flaky failure: remove one
   change at a time (exactly one test per change; each believed pass costs n
   runs, and this strategy has exactly one believed pass per culprit, the fewest
   possible). Many changes and a deterministic failure: ddmin (Zeller and
   Hildebrandt, TSE 2002), which ends by testing every "undo one".
4. Confirmation. Unless ``repeats=1``, the answer is run again until it shows the
   target (at most n runs); ``result.confirmed`` says whether it did.

Every configuration's observations are cached by frozenset and accumulate, so
nothing is run twice needlessly and a configuration with 3 clean runs needs only
n - 3 more. ``jobs=N`` runs up to N runs at once (threads calling ``run_once``):
slots go to the earliest undecided test first, later tests run speculatively, and
tests are decided in order, so a deterministic predicate gives the same answer for
any N (wasted speculative runs are counted in ``runs``). ``max_runs`` ends the
search early with a partial result; Ctrl-C raises ``BisectInterrupted`` carrying
the partial result (``.result``).

Assumption worth knowing: removing one change at a time decides "X is needed" on
the configuration current when X was tried, which may still hold changes removed
later; the answer is 1-minimal when the failure is monotone (a subset of a
passing set of changes passes), the usual case for a conjunction of settings.
``Culprit.tested`` names the exact configuration that passed.
"""

from __future__ import annotations

import concurrent.futures as cf
import math
from dataclasses import dataclass
from typing import Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Tuple

from runner.outcome import NOT_FAILURES
from runner.signature import RESTATES_OUTCOME

__all__ = [
    "Observation",
    "FailureRate",
    "Culprit",
    "OtherObservation",
    "BisectResult",
    "BisectInterrupted",
    "bisect",
    "clean_runs_needed",
    "predictive_clean_chance",
    "predictive_runs_needed",
    "wilson_lower",
    "summary_line",
    "rate_line",
    "detail_lines",
    "as_bisect_json",
    "ONE_AT_A_TIME_MAX",
]

ONE_AT_A_TIME_MAX = 16  # above this many changes, a deterministic search uses ddmin
DEFAULT_ESTIMATE_RUNS = 8  # runs of the bad configuration at least ...
ESTIMATE_FAILURES = 4  # ... and more until it has failed this often ...
ESTIMATE_MAX = 30  # ... but at most this many
DEFAULT_MISS_CHANCE = 0.01  # whole answer wrong at most this often
PER_TEST_MISS_MAX = 0.01  # and never more than this per believed pass
# Width of the Wilson lower bound on the pooled failure rate, for final verdicts.
# A one-sided ~76% bound: wider bounds buy exactness no caller asked for (z = 1
# left 0.3-0.5% misses where 1% was allowed, at 63 runs for a 3-of-7 bug at
# p = 0.5); narrower ones overshoot 1% at low failure rates. The trade-off table
# of bench/bench_bisect.py shows both sides.
WILSON_Z = 0.7
SEARCH_MISS = 0.01  # per-test miss chance while searching, plain estimate (topped up at the end)


@dataclass(frozen=True)
class Observation:
    """What one run of one configuration did."""

    outcome: str
    signal: str = ""
    signature: str = ""  # runner.signature: fd_exhaustion, worker_signal, ... or a masked error line

    @property
    def is_failure(self) -> bool:
        return self.outcome not in NOT_FAILURES

    def __str__(self) -> str:
        shown = self.signature if self.signature not in RESTATES_OUTCOME else ""
        return f"{self.outcome} {self.signal}".strip() + (f" ({shown})" if shown else "")


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


@dataclass(frozen=True)
class Culprit:
    """One change of the answer and the evidence that it is needed."""

    change: str
    tested: Tuple[str, ...]  # the changes applied in the run with this one undone
    runs: int  # runs of that configuration
    clean: int  # of which passed
    others: Tuple[Tuple[Observation, int], ...] = ()  # non-pass, non-target outcomes seen there


@dataclass(frozen=True)
class OtherObservation:
    """A run that was neither a pass nor the target failure."""

    changes: Tuple[str, ...]
    observation: Observation
    count: int


@dataclass(frozen=True)
class BisectResult:
    changes: Tuple[str, ...]  # every change from good to bad, caller's order
    minimal: Tuple[str, ...]  # the answer, caller's order
    target: Optional[Observation]  # None: the bad configuration never failed
    runs: int  # every run_once call, estimation and confirmation included
    repeats: int  # clean runs needed to believe a pass (final value)
    repeats_given: bool  # the caller fixed repeats (no estimation)
    bad_rate: Optional[FailureRate]  # the bad configuration's own sample
    pooled_rate: Optional[FailureRate]  # every configuration known to fail, pooled, when n was set
    miss_per_test: Optional[float]  # chance a failing configuration shows `repeats` clean runs; None when repeats was given
    strategy: str  # "one-at-a-time" | "ddmin" | "" (no search)
    confirmed: bool  # the answer was seen to show the target (re-run unless repeats=1)
    confirm_runs: int
    partial: bool
    stop_reason: str  # "" | "max_runs" | "interrupted"
    culprits: Tuple[Culprit, ...]
    others: Tuple[OtherObservation, ...]
    good_fails: bool = False  # the good configuration itself showed the target

    @property
    def found(self) -> bool:
        """An answer exists: the bad configuration failed and the search got somewhere."""
        return self.target is not None and not self.good_fails

    def culprit_is_exact(self, culprit: Culprit) -> bool:
        return set(culprit.tested) == set(self.minimal) - {culprit.change}


class BisectInterrupted(KeyboardInterrupt):
    """Ctrl-C during a bisection; ``.result`` is the best answer so far (partial)."""

    def __init__(self, result: BisectResult):
        super().__init__("bisection interrupted")
        self.result = result


class _BudgetExhausted(Exception):
    pass


# --------------------------------------------------------------------------- statistics


def wilson_lower(failures: int, runs: int, z: Optional[float] = None) -> float:
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


# --------------------------------------------------------------------------- the search

RunOnce = Callable[[FrozenSet[str]], Observation]


class _Bisector:
    def __init__(
        self,
        changes: Sequence[str],
        run_once: RunOnce,
        *,
        repeats: Optional[int],
        max_runs: Optional[int],
        jobs: int,
        estimate_runs: int,
        miss_chance: float,
        strategy: str,
        confirm: Optional[bool],
    ):
        self.changes = tuple(changes)
        self.order = {c: i for i, c in enumerate(self.changes)}
        self.run_once = run_once
        self.repeats_given = repeats
        self.max_runs = max_runs
        self.jobs = jobs
        self.estimate_runs = estimate_runs
        self.miss_chance = miss_chance
        self.strategy_wanted = strategy
        self.confirm_wanted = confirm
        self.cache: Dict[FrozenSet[str], List[Observation]] = {}
        self.inflight: Dict[cf.Future, FrozenSet[str]] = {}
        self.inflight_count: Dict[FrozenSet[str], int] = {}
        self.runs = 0
        self.target: Optional[Observation] = None
        self.bad_rate: Optional[FailureRate] = None
        self.strategy = ""
        self.tests_at_risk = max(1, len(self.changes))
        self.current: FrozenSet[str] = frozenset(self.changes)
        self.culprit_config: Dict[str, FrozenSet[str]] = {}
        self.confirmed = False
        self.confirm_runs = 0
        self.good_fails = False
        self.final = False  # conservative n from now on
        self.final_n: Optional[int] = None  # n frozen for the report once decided
        self.final_rate: Optional[FailureRate] = None  # the pooled rate it came from
        self.pool = cf.ThreadPoolExecutor(max_workers=jobs) if jobs > 1 else None

    # ---- runs and cache

    def _start(self, config: FrozenSet[str]) -> None:
        if self.max_runs is not None and self.runs >= self.max_runs:
            raise _BudgetExhausted()
        self.runs += 1
        if self.pool is None:
            self._record(config, self.run_once(config))
        else:
            fut = self.pool.submit(self.run_once, config)
            self.inflight[fut] = config
            self.inflight_count[config] = self.inflight_count.get(config, 0) + 1

    def _record(self, config: FrozenSet[str], obs: Observation) -> None:
        if not isinstance(obs, Observation):
            raise TypeError(f"run_once must return an Observation, got {obs!r}")
        self.cache.setdefault(config, []).append(obs)

    def _collect(self, block: bool) -> None:
        if not self.inflight:
            return
        done, _ = cf.wait(
            list(self.inflight), timeout=None if block else 0, return_when=cf.FIRST_COMPLETED
        )
        # record in submission order so the cache does not depend on thread timing
        for fut in [f for f in self.inflight if f in done]:
            config = self.inflight.pop(fut)
            self.inflight_count[config] -= 1
            self._record(config, fut.result())

    def _drain(self) -> None:
        while self.inflight:
            self._collect(block=True)

    def _shows_target(self, config: FrozenSet[str]) -> bool:
        return any(o == self.target for o in self.cache.get(config, ()))

    def _n_runs(self, config: FrozenSet[str]) -> int:
        return len(self.cache.get(config, ()))

    # ---- how many clean runs make a pass

    def pooled_rate(self) -> Optional[FailureRate]:
        if self.target is None:
            return None
        failures = runs = 0
        for obs in self.cache.values():
            hits = sum(1 for o in obs if o == self.target)
            if hits:
                failures += hits
                runs += len(obs)
        # every run of the pool ends a sequence stopped at a failure (a test stops
        # at its first target failure, the estimate at its 4th), which biases
        # failures/runs upwards; leaving one failure out is the classic fix
        # (the unbiased estimate under inverse sampling is (F - 1) / (N - 1))
        lower = wilson_lower(failures - 1, runs - 1) if runs > 1 else 0.0
        return FailureRate(failures, runs, lower)

    def per_test_miss(self) -> float:
        tests = self.tests_at_risk
        if self.final and self.strategy == "one-at-a-time":
            # only the tests that really failed can be wrongly believed: the
            # removals that went through, plus one for the answer to be wrong at all
            tests = max(1, len(self.changes) - len(self.current) + 1)
        return min(PER_TEST_MISS_MAX, self.miss_chance / tests)

    def n_needed(self) -> int:
        if self.final_n is not None:
            return self.final_n
        if self.repeats_given is not None:
            return self.repeats_given
        rate = self.pooled_rate()
        assert rate is not None and rate.failures > 0
        # during the search a plain estimate is enough: finalize() tops every
        # believed pass up to the conservative count, and cached runs count there
        if not self.final:
            return clean_runs_needed(rate.estimate, SEARCH_MISS)
        miss = self.per_test_miss()
        by_bound = clean_runs_needed(rate.lower if rate.lower > 0.0 else 1.0 / (rate.runs + 1), miss)
        return max(by_bound, predictive_runs_needed(rate.failures, rate.runs, miss))

    # ---- deciding tests, possibly several at once

    def first_failing(self, candidates: Sequence[FrozenSet[str]]) -> Optional[int]:
        """Decide candidates in order; the index of the first showing the target
        failure (all before it believed passing), or None when all pass."""
        while True:
            self._collect(block=False)
            n = self.n_needed()
            first_open = None
            for i, config in enumerate(candidates):
                if self._shows_target(config):
                    return i
                if self._n_runs(config) < n:
                    first_open = i
                    break
            if first_open is None:
                return None
            started = self._schedule(candidates, first_open, n)
            if self.pool is None:
                continue
            if not started and not self.inflight:
                raise _BudgetExhausted()
            self._collect(block=True)

    def _schedule(self, candidates: Sequence[FrozenSet[str]], first_open: int, n: int) -> bool:
        """Give free slots to the earliest undecided candidates; True if any run started."""
        started = False
        if self.pool is None:
            self._start(candidates[first_open])
            return True
        free = self.jobs - len(self.inflight)
        for config in candidates[first_open:]:
            if free <= 0:
                break
            if self._shows_target(config):
                break  # it decides the round if everything before it passes
            want = n - self._n_runs(config) - self.inflight_count.get(config, 0)
            while want > 0 and free > 0:
                if self.max_runs is not None and self.runs >= self.max_runs:
                    return started
                self._start(config)
                started = True
                want -= 1
                free -= 1
        return started

    # ---- phases

    def estimate(self) -> None:
        bad = frozenset(self.changes)
        if self.repeats_given is not None:
            # the caller chose n: run the bad configuration until it fails, at most n times
            while self.target is None and self._n_runs(bad) < self.repeats_given:
                self._start(bad)
                self._drain()
                last = self.cache[bad][-1]
                if last.is_failure:
                    self.target = last
        else:
            # at least estimate_runs runs; a rarely failing configuration gets more,
            # until it has failed ESTIMATE_FAILURES times (the precision of the
            # estimate rests on the number of failures, not of runs)
            most = max(self.estimate_runs, ESTIMATE_MAX)
            while True:
                obs = self.cache.get(bad, [])
                failed = sum(1 for o in obs if o.is_failure)
                if len(obs) >= most or (
                    len(obs) >= self.estimate_runs and failed >= ESTIMATE_FAILURES
                ):
                    break
                want = self.estimate_runs - len(obs) if len(obs) < self.estimate_runs else 1
                for _ in range(max(1, min(self.jobs, want))):
                    self._start(bad)
                self._drain()
            counts: Dict[Observation, int] = {}
            for o in self.cache.get(bad, ()):
                if o.is_failure:
                    counts[o] = counts.get(o, 0) + 1
            if counts:  # the most frequent failure; ties go to the first seen
                self.target = max(counts, key=lambda o: counts[o])
        if self.target is not None:
            obs = self.cache[bad]
            f = sum(1 for o in obs if o == self.target)
            self.bad_rate = FailureRate(f, len(obs), wilson_lower(f, len(obs)))

    def choose_strategy(self) -> None:
        k = len(self.changes)
        s = self.strategy_wanted
        if s == "auto":
            flaky = self.n_needed() > 1
            s = "one-at-a-time" if (k <= ONE_AT_A_TIME_MAX or flaky) else "ddmin"
        self.strategy = s
        # tests that could be wrongly believed to pass: one per change for one at a
        # time; ddmin tries more configurations, so budget for twice as many
        self.tests_at_risk = max(1, k if s == "one-at-a-time" else 2 * k)

    def ordered(self, configs: Iterable[str]) -> Tuple[str, ...]:
        return tuple(sorted(configs, key=self.order.__getitem__))

    def one_at_a_time(self) -> None:
        todo = list(self.changes)
        while todo:
            candidates = [self.current - {c} for c in todo]
            i = self.first_failing(candidates)
            for c, config in zip(todo[: len(todo) if i is None else i], candidates):
                self.culprit_config[c] = config
            if i is None:
                break
            self.current = candidates[i]
            todo = todo[i + 1 :]

    def ddmin(self) -> None:
        granularity = 2
        while len(self.current) >= 2:
            items = list(self.ordered(self.current))
            granularity = min(granularity, len(items))
            chunks = _split(items, granularity)
            subsets = [frozenset(ch) for ch in chunks]
            complements = [self.current - s for s in subsets]
            candidates: List[FrozenSet[str]] = []
            for config in subsets + complements:
                if config not in candidates:
                    candidates.append(config)
            i = self.first_failing(candidates)
            if i is not None:
                found = candidates[i]
                reduced_to_subset = found in subsets and len(found) < len(self.current)
                self.current = found
                granularity = 2 if reduced_to_subset else max(granularity - 1, 2)
                continue
            if granularity >= len(items):
                break
            granularity = min(len(items), 2 * granularity)
        for c in self.current:
            self.culprit_config[c] = self.current - {c}

    def finalize(self) -> None:
        """Top every 'undo X' test up to the final n; if one turns out to fail,
        X was not needed after all: undo it for real and check again."""
        self.final = True
        while True:
            self._collect(block=False)
            suspects = [c for c in self.ordered(self.current)]
            if not suspects:
                return
            configs = []
            for c in suspects:
                exact = self.current - {c}
                config = self.culprit_config.get(c, exact)
                if config != exact and any(o.outcome != "pass" for o in self.cache.get(config, ())):
                    # A superset that passed says its subset passes too; one that failed some other
                    # way says nothing about the answer without c: ask about that itself.
                    config = self.culprit_config[c] = exact
                configs.append(config)
            i = self.first_failing(configs)
            if i is None:
                return
            c = suspects[i]
            exact = self.current - {c}
            if configs[i] != exact:
                # the superset tried during the search fails after more runs; ask
                # about the answer itself without that change
                self.culprit_config[c] = exact
                continue
            self.current = exact
            self.culprit_config.pop(c, None)

    def confirm(self) -> None:
        do = self.confirm_wanted
        if do is None:
            do = self.repeats_given != 1
        if not do:
            self.confirmed = self._shows_target(self.current)
            return
        n = self.n_needed()
        tries = 0
        while not self.confirmed and tries < n:
            self._start(self.current)
            self.confirm_runs += 1
            tries += 1
            self._drain()
            if self.cache[self.current][-1] == self.target:
                self.confirmed = True

    def run(self) -> BisectResult:
        try:
            self.estimate()
            if self.target is None:
                return self.result()
            self.choose_strategy()
            if self.strategy == "one-at-a-time":
                self.one_at_a_time()
            else:
                self.ddmin()
            self._drain()
            if not self.current:
                self.good_fails = True
                return self.result()
            # confirm first: its runs also sharpen the failure rate used below
            self.confirm()
            before = self.current
            self.finalize()
            self._drain()
            self.final_n = self.n_needed()
            self.final_rate = self.pooled_rate()
            self.good_fails = not self.current
            if self.current != before and not self.good_fails:
                self.confirmed = False
                self.confirm()
            return self.result()
        except _BudgetExhausted:
            self._drain()
            return self.result(stop_reason="max_runs")
        except KeyboardInterrupt:
            if self.pool is not None:
                self.pool.shutdown(wait=False, cancel_futures=True)
                self.pool = None
            raise BisectInterrupted(self.result(stop_reason="interrupted")) from None
        finally:
            if self.pool is not None:
                self.pool.shutdown(wait=True)

    def result(self, stop_reason: str = "") -> BisectResult:
        partial = bool(stop_reason)
        culprits = []
        if self.target is not None:
            for c in self.ordered(self.current):
                config = self.culprit_config.get(c)
                if config is None:
                    continue  # not decided yet (partial result)
                obs = self.cache.get(config, [])
                culprits.append(
                    Culprit(
                        change=c,
                        tested=self.ordered(config),
                        runs=len(obs),
                        clean=sum(1 for o in obs if o.outcome == "pass"),
                        others=_counts(o for o in obs if o.outcome != "pass" and o != self.target),
                    )
                )
        others = []
        for config in sorted(self.cache, key=lambda s: (len(s), self.ordered(s))):
            for obs, count in _counts(
                o for o in self.cache[config] if o.outcome != "pass" and o != self.target
            ):
                others.append(OtherObservation(self.ordered(config), obs, count))
        pooled = self.final_rate or self.pooled_rate()
        n = self.repeats_given
        miss = None
        if n is None:
            n = self.n_needed() if pooled and pooled.failures else 0
            if pooled and pooled.failures:
                miss = max(
                    (1 - pooled.lower) ** n,
                    predictive_clean_chance(pooled.failures, pooled.runs, n),
                )
        return BisectResult(
            changes=self.changes,
            minimal=self.ordered(self.current) if self.target is not None else (),
            target=self.target,
            runs=self.runs,
            repeats=n,
            repeats_given=self.repeats_given is not None,
            bad_rate=self.bad_rate,
            pooled_rate=pooled,
            miss_per_test=miss,
            strategy=self.strategy,
            confirmed=self.confirmed,
            confirm_runs=self.confirm_runs,
            partial=partial,
            stop_reason=stop_reason,
            culprits=tuple(culprits),
            others=tuple(others),
            good_fails=self.good_fails,
        )


def _split(items: List[str], n: int) -> List[List[str]]:
    out, start = [], 0
    for i in range(n):
        stop = start + (len(items) - start) // (n - i)
        out.append(items[start:stop])
        start = stop
    return out


def _counts(observations: Iterable[Observation]) -> Tuple[Tuple[Observation, int], ...]:
    counts: Dict[Observation, int] = {}
    for o in observations:
        counts[o] = counts.get(o, 0) + 1
    return tuple(counts.items())


def bisect(
    changes: Sequence[str],
    run_once: RunOnce,
    *,
    repeats: Optional[int] = None,
    max_runs: Optional[int] = None,
    jobs: int = 1,
    estimate_runs: int = DEFAULT_ESTIMATE_RUNS,
    miss_chance: float = DEFAULT_MISS_CHANCE,
    strategy: str = "auto",
    confirm: Optional[bool] = None,
) -> BisectResult:
    """The 1-minimal subset of ``changes`` whose application to the good
    configuration still shows the bad configuration's failure.

    ``run_once(frozenset_of_changes) -> Observation`` runs the good configuration
    with those changes applied, once. ``repeats``: clean runs needed to believe a
    pass (None: estimate from ``estimate_runs`` runs of the bad configuration;
    1: deterministic, no estimation, no confirmation re-run). ``max_runs``: stop
    with a partial result after that many runs. ``jobs``: runs at once.
    ``miss_chance``: the chance the answer is wrong that the estimated n allows.
    ``strategy``: "auto" | "one-at-a-time" | "ddmin". ``confirm``: re-run the
    answer at the end (None: unless repeats == 1).

    Returns a BisectResult (``partial`` when ``max_runs`` ran out); raises
    BisectInterrupted (a KeyboardInterrupt carrying ``.result``) on Ctrl-C.
    """
    names = tuple(changes)
    if len(set(names)) != len(names):
        raise ValueError(f"changes must be distinct, got {list(names)}")
    if repeats is not None and repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    if max_runs is not None and max_runs < 1:
        raise ValueError(f"max_runs must be at least 1, got {max_runs}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if estimate_runs < 1:
        raise ValueError(f"estimate_runs must be at least 1, got {estimate_runs}")
    if not 0 < miss_chance < 1:
        raise ValueError(f"miss_chance must be between 0 and 1, got {miss_chance}")
    if strategy not in ("auto", "one-at-a-time", "ddmin"):
        raise ValueError(f"strategy must be auto, one-at-a-time or ddmin, got {strategy!r}")
    return _Bisector(
        names,
        run_once,
        repeats=repeats,
        max_runs=max_runs,
        jobs=jobs,
        estimate_runs=estimate_runs,
        miss_chance=miss_chance,
        strategy=strategy,
        confirm=confirm,
    ).run()


# --------------------------------------------------------------------------- words for people


def _name(change: str, values: Optional[Mapping[str, object]]) -> str:
    if values is None or change not in values:
        return change
    return f"{change}={values[change]}"


def _percent(x: float) -> str:
    pct = 100 * x
    if pct >= 1:
        return f"{pct:.0f}%"
    digits = max(1, -math.floor(math.log10(pct)) if pct > 0 else 1)
    return f"{pct:.{digits}f}%"


def summary_line(result: BisectResult, values: Optional[Mapping[str, object]] = None) -> str:
    """One line for people, e.g. ``crash SIGSEGV needs start_method=fork +
    pin_memory=true; undoing any one passes (10/10 clean each); 17 runs``.

    ``values`` maps a change (axis) to its bad value, to print ``axis=value``.
    """
    runs = f"{result.runs} run" + ("" if result.runs == 1 else "s")
    prefix = ""
    if result.partial:
        why = {"max_runs": "run budget spent", "interrupted": "interrupted"}.get(
            result.stop_reason, result.stop_reason
        )
        prefix = f"partial ({why}): "
    if result.target is None:
        return f"{prefix}the bad configuration did not fail ({runs})"
    if result.good_fails:
        return (
            f"{prefix}{result.target} even with every change undone: "
            f"the good configuration fails too; {runs}"
        )
    names = " + ".join(_name(c, values) for c in result.minimal)
    head = f"{prefix}{result.target} needs {names}"
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
                other = "".join(f", {o} {k}/{c.runs}" for o, k in c.others)
                bits.append(f"{_name(c.change, values)} {c.clean}/{c.runs} clean{other}")
            parts.append(f"undoing one: {'; '.join(bits)}; never {result.target}")
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


def detail_lines(result: BisectResult, values: Optional[Mapping[str, object]] = None) -> List[str]:
    """Summary, flakiness, and every other failure seen, one per line."""
    lines = [summary_line(result, values), rate_line(result)]
    for o in result.others:
        config = " + ".join(_name(c, values) for c in o.changes) or "the good configuration"
        lines.append(f"also seen: {o.observation} x{o.count} with {config}")
    return lines


def as_bisect_json(
    result: BisectResult, good: Mapping[str, object], bad: Mapping[str, object]
) -> dict:
    """The contract's bisect.json object, contract keys first, then details."""
    return {
        "good": dict(good),
        "bad": dict(bad),
        "minimal": {c: bad[c] for c in result.minimal},
        "outcome": result.target.outcome if result.target else None,
        "signal": result.target.signal if result.target else "",
        "runs": result.runs,
        "signature": result.target.signature if result.target else "",
        "repeats": result.repeats,
        "failure_rate": (
            {"failures": result.bad_rate.failures, "runs": result.bad_rate.runs}
            if result.bad_rate
            else None
        ),
        "miss_per_test": result.miss_per_test,
        "strategy": result.strategy,
        "confirmed": result.confirmed,
        "partial": result.partial,
        "stop_reason": result.stop_reason,
        "undo": [
            {"axis": c.change, "tested": list(c.tested), "runs": c.runs, "clean": c.clean}
            for c in result.culprits
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
