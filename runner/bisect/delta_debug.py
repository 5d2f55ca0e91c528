"""Delta debugging over axis changes: the 1-minimal set of changes from a good
configuration that still shows the bad configuration's failure, flaky-aware.

The caller injects the test, ``run_once(changes) -> FailureKind``: it applies the
given subset of changes to the good configuration, runs it once for real and says
what happened. The bad configuration's failure is the target; a test fails only
when it shows that same FailureKind, and any other failure goes to
``result.others``. A pass is believed after n clean runs (n from the estimated
failure rate, or ``repeats``). ``jobs`` runs tests at once without changing a
deterministic answer; ``max_runs`` and Ctrl-C (``BisectInterrupted``) end with a
partial result. Pure Python (no processes), tested with predicates whose answer is
known. The phases, the statistics and the assumption behind 1-minimality:
docs/bisect.md.

Neighbours: crashmatrix.bisect.failure_rate (how many clean runs make a pass), crashmatrix.bisect.run_cache
(cached, concurrent runs), crashmatrix.bisect.result and crashmatrix.bisect.text (the answer,
in words and bisect.json), crashmatrix.bisect.verb (`crashmatrix bisect`: a real cell
as the test).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from crashmatrix.bisect.failure_rate import (
    FailureRate,
    clean_runs_needed,
    miss_chance_of,
    pooled_rate,
    runs_to_believe_pass,
    wilson_lower,
)
from crashmatrix.bisect.result import BisectInterrupted, BisectResult, Culprit, OtherObservation
from crashmatrix.bisect.run_cache import BudgetExhausted, RunCache, RunOnce
from crashmatrix.outcome import FailureKind

__all__ = ["bisect", "BisectSettings", "RunOnce", "ONE_AT_A_TIME_MAX"]

ONE_AT_A_TIME_MAX = 16  # above this many changes, a deterministic search uses ddmin
DEFAULT_ESTIMATE_RUNS = 8  # runs of the bad configuration at least ...
ESTIMATE_FAILURES = 4  # ... and more until it has failed this often ...
ESTIMATE_MAX = 30  # ... but at most this many
DEFAULT_MISS_CHANCE = 0.01  # whole answer wrong at most this often
PER_TEST_MISS_MAX = 0.01  # and never more than this per believed pass
SEARCH_MISS = 0.01  # per-test miss chance while searching, plain estimate (topped up at the end)
STRATEGIES = ("auto", "one-at-a-time", "ddmin")


@dataclass(frozen=True)
class BisectSettings:
    """The caller's knobs of ``bisect`` (see there), checked on construction."""

    repeats: int | None = None
    max_runs: int | None = None
    jobs: int = 1
    estimate_runs: int = DEFAULT_ESTIMATE_RUNS
    miss_chance: float = DEFAULT_MISS_CHANCE
    strategy: str = "auto"
    confirm: bool | None = None

    def __post_init__(self) -> None:
        if self.repeats is not None and self.repeats < 1:
            raise ValueError(f"repeats must be at least 1, got {self.repeats}")
        if self.max_runs is not None and self.max_runs < 1:
            raise ValueError(f"max_runs must be at least 1, got {self.max_runs}")
        if self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {self.jobs}")
        if self.estimate_runs < 1:
            raise ValueError(f"estimate_runs must be at least 1, got {self.estimate_runs}")
        if not 0 < self.miss_chance < 1:
            raise ValueError(f"miss_chance must be between 0 and 1, got {self.miss_chance}")
        if self.strategy not in STRATEGIES:
            raise ValueError(f"strategy must be auto, one-at-a-time or ddmin, got {self.strategy!r}")


class _DeltaDebugger:
    """One bisection: its phases (estimate, search, confirm, finalize) over a RunCache."""

    def __init__(self, changes: Sequence[str], run_once: RunOnce, settings: BisectSettings):
        self.changes = tuple(changes)
        self.order = {c: i for i, c in enumerate(self.changes)}
        self.settings = settings
        self.cache = RunCache(run_once, jobs=settings.jobs, max_runs=settings.max_runs)
        self.target: FailureKind | None = None
        self.no_change_tried = False
        self.bad_rate: FailureRate | None = None
        self.strategy = ""
        self.tests_at_risk = max(1, len(self.changes))
        self.current: frozenset[str] = frozenset(self.changes)
        self.culprit_config: dict[str, frozenset[str]] = {}
        self.confirmed = False
        self.confirm_runs = 0
        self.good_fails = False
        self.final = False  # conservative n from now on
        self.final_n: int | None = None  # n frozen for the report once decided
        self.final_rate: FailureRate | None = None  # the pooled rate it came from

    def ordered(self, configs: Iterable[str]) -> tuple[str, ...]:
        return tuple(sorted(configs, key=self.order.__getitem__))

    # ---- how many clean runs make a pass

    def pooled_rate(self) -> FailureRate | None:
        if self.target is None:
            return None
        return pooled_rate(self.cache.observations.values(), self.target)

    def per_test_miss(self) -> float:
        tests = self.tests_at_risk
        if self.final and self.strategy == "one-at-a-time":
            # only the tests that really failed can be wrongly believed: the
            # removals that went through, plus one for the answer to be wrong at all
            tests = max(1, len(self.changes) - len(self.current) + 1)
        return min(PER_TEST_MISS_MAX, self.settings.miss_chance / tests)

    def n_needed(self) -> int:
        if self.final_n is not None:
            return self.final_n
        if self.settings.repeats is not None:
            return self.settings.repeats
        rate = self.pooled_rate()
        assert rate is not None and rate.failures > 0
        # during the search a plain estimate is enough: finalize() tops every
        # believed pass up to the conservative count, and cached runs count there
        if not self.final:
            return clean_runs_needed(rate.estimate, SEARCH_MISS)
        return runs_to_believe_pass(rate, self.per_test_miss())

    # ---- deciding tests, possibly several at once

    def first_failing(self, candidates: Sequence[frozenset[str]]) -> int | None:
        """Decide candidates in order; the index of the first showing the target
        failure (all before it believed passing), or None when all pass."""
        cache = self.cache
        while True:
            cache.collect(block=False)
            n = self.n_needed()
            first_open = None
            for i, config in enumerate(candidates):
                if cache.shows(config, self.target):
                    return i
                if cache.count(config) < n:
                    first_open = i
                    break
            if first_open is None:
                return None
            started = cache.fill_slots(candidates, first_open, n, self.target)
            if not cache.concurrent:
                continue
            if not started and not cache.inflight:
                raise BudgetExhausted()
            cache.collect(block=True)

    # ---- phases

    def estimate(self) -> None:
        """Run the bad configuration to learn the target failure (and its rate)."""
        self.target = _learn_target(self.cache, frozenset(self.changes), self.settings)
        if self.target is not None:
            self.bad_rate = _rate_of(self.cache.of(frozenset(self.changes)), self.target)

    def choose_strategy(self) -> None:
        flaky = self.settings.strategy == "auto" and self.n_needed() > 1
        self.strategy = _strategy_for(self.settings.strategy, len(self.changes), flaky)
        # tests that could be wrongly believed to pass: one per change for one at a
        # time; ddmin tries more configurations, so budget for twice as many
        k = len(self.changes)
        self.tests_at_risk = max(1, k if self.strategy == "one-at-a-time" else 2 * k)

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
            subsets, candidates = _ddmin_candidates(self.current, items, granularity)
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
            self.cache.collect(block=False)
            suspects = list(self.ordered(self.current))
            if not suspects:
                return
            configs = [self._undo_test(c) for c in suspects]
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

    def _undo_test(self, change: str) -> frozenset[str]:
        """The configuration whose passing shows ``change`` is needed."""
        exact = self.current - {change}
        config = self.culprit_config.get(change, exact)
        if config != exact and any(not o.is_pass for o in self.cache.of(config)):
            # A superset that passed says its subset passes too; one that failed some other
            # way says nothing about the answer without the change: ask about that itself.
            config = self.culprit_config[change] = exact
        return config

    def confirm(self) -> None:
        do = self.settings.confirm
        if do is None:
            do = self.settings.repeats != 1
        if not do:
            self.confirmed = self.cache.shows(self.current, self.target)
            return
        n = self.n_needed()
        tries = 0
        while not self.confirmed and tries < n:
            self.cache.start(self.current)
            self.confirm_runs += 1
            tries += 1
            self.cache.drain()
            if self.cache.of(self.current)[-1] == self.target:
                self.confirmed = True

    def search(self) -> BisectResult:
        self.estimate()
        if self.target is None:
            return _result(self)
        self.choose_strategy()
        if self.strategy == "one-at-a-time":
            self.one_at_a_time()
        else:
            self.ddmin()
        self.cache.drain()
        if not self.current:
            self.good_fails = True
            return _result(self)
        # confirm first: its runs also sharpen the failure rate used below
        self.confirm()
        before = self.current
        self.finalize()
        self.cache.drain()
        self.final_n = self.n_needed()
        self.final_rate = self.pooled_rate()
        self.good_fails = not self.current
        if self.current != before and not self.good_fails:
            self.confirmed = False
            self.confirm()
        return _result(self)


def _learn_target_so_far(debugger: _DeltaDebugger) -> None:
    """Stopped while estimating: the bad configuration's failures so far still name the target."""
    if debugger.target is not None:
        return
    bad = debugger.cache.of(frozenset(debugger.changes))
    debugger.target = _most_frequent_failure(bad)
    if debugger.target is not None:
        debugger.bad_rate = _rate_of(bad, debugger.target)
        debugger.no_change_tried = True


def _strategy_for(wanted: str, changes: int, flaky: bool) -> str:
    if wanted != "auto":
        return wanted
    return "one-at-a-time" if (changes <= ONE_AT_A_TIME_MAX or flaky) else "ddmin"


def _learn_target(cache: RunCache, bad: frozenset[str], settings: BisectSettings) -> FailureKind | None:
    """Run the bad configuration; the failure it shows is the target (None: it never failed)."""
    if settings.repeats is not None:
        # the caller chose n: run the bad configuration until it fails, at most n times (a failure
        # among the runs seeded from a finished run names it at once)
        seen = _most_frequent_failure(cache.of(bad))
        if seen is not None:
            return seen
        while cache.count(bad) < settings.repeats:
            cache.start(bad)
            cache.drain()
            last = cache.of(bad)[-1]
            if last.is_failure:
                return last
        return None
    _sample_bad(cache, bad, settings)
    return _most_frequent_failure(cache.of(bad))


def _sample_bad(cache: RunCache, bad: frozenset[str], settings: BisectSettings) -> None:
    # at least estimate_runs runs; a rarely failing configuration gets more,
    # until it has failed ESTIMATE_FAILURES times (the precision of the
    # estimate rests on the number of failures, not of runs)
    least = settings.estimate_runs
    most = max(least, ESTIMATE_MAX)
    while True:
        obs = cache.of(bad)
        failed = sum(1 for o in obs if o.is_failure)
        if len(obs) >= most or (len(obs) >= least and failed >= ESTIMATE_FAILURES):
            break
        want = least - len(obs) if len(obs) < least else 1
        for _ in range(max(1, min(settings.jobs, want))):
            cache.start(bad)
        cache.drain()


def _rate_of(observations: Sequence[FailureKind], target: FailureKind) -> FailureRate:
    failures = sum(1 for o in observations if o == target)
    return FailureRate(failures, len(observations), wilson_lower(failures, len(observations)))


def _most_frequent_failure(observations: Iterable[FailureKind]) -> FailureKind | None:
    """The failure seen most often; ties go to the first seen; None without a failure."""
    counts: dict[FailureKind, int] = {}
    for o in observations:
        if o.is_failure:
            counts[o] = counts.get(o, 0) + 1
    return max(counts, key=lambda o: counts[o]) if counts else None


def _ddmin_candidates(current: frozenset[str], items: list[str], granularity: int):
    """ddmin's tests at this granularity: the subsets, then their complements (no repeats)."""
    subsets = [frozenset(chunk) for chunk in _split(items, granularity)]
    complements = [current - s for s in subsets]
    candidates: list[frozenset[str]] = []
    for config in subsets + complements:
        if config not in candidates:
            candidates.append(config)
    return subsets, candidates


def _split(items: list[str], n: int) -> list[list[str]]:
    out, start = [], 0
    for i in range(n):
        stop = start + (len(items) - start) // (n - i)
        out.append(items[start:stop])
        start = stop
    return out


def _counts(observations: Iterable[FailureKind]) -> tuple[tuple[FailureKind, int], ...]:
    counts: dict[FailureKind, int] = {}
    for o in observations:
        counts[o] = counts.get(o, 0) + 1
    return tuple(counts.items())


def _culprits(debugger: _DeltaDebugger) -> tuple[Culprit, ...]:
    culprits = []
    for c in debugger.ordered(debugger.current):
        config = debugger.culprit_config.get(c)
        if config is None:
            continue  # not decided yet (partial result)
        obs = debugger.cache.of(config)
        culprits.append(
            Culprit(
                change=c,
                tested=debugger.ordered(config),
                runs=len(obs),
                clean=sum(1 for o in obs if o.is_pass),
                others=_counts(o for o in obs if not o.is_pass and o != debugger.target),
            )
        )
    return tuple(culprits)


def _others(debugger: _DeltaDebugger) -> tuple[OtherObservation, ...]:
    others = []
    observations = debugger.cache.observations
    for config in sorted(observations, key=lambda s: (len(s), debugger.ordered(s))):
        for obs, count in _counts(o for o in observations[config] if not o.is_pass and o != debugger.target):
            others.append(OtherObservation(debugger.ordered(config), obs, count))
    return tuple(others)


def _result(debugger: _DeltaDebugger, stop_reason: str = "") -> BisectResult:
    pooled = debugger.final_rate or debugger.pooled_rate()
    n = debugger.settings.repeats
    miss = None
    if n is None:
        n = debugger.n_needed() if pooled and pooled.failures else 0
        if pooled and pooled.failures:
            miss = miss_chance_of(pooled, n)
    return BisectResult(
        changes=debugger.changes,
        minimal=debugger.ordered(debugger.current) if debugger.target is not None else (),
        target=debugger.target,
        runs=debugger.cache.runs,
        seeded=debugger.cache.seeded,
        repeats=n,
        repeats_given=debugger.settings.repeats is not None,
        bad_rate=debugger.bad_rate,
        pooled_rate=pooled,
        miss_per_test=miss,
        strategy=debugger.strategy,
        confirmed=debugger.confirmed,
        confirm_runs=debugger.confirm_runs,
        partial=bool(stop_reason),
        stop_reason=stop_reason,
        culprits=_culprits(debugger) if debugger.target is not None else (),
        others=_others(debugger),
        good_fails=debugger.good_fails,
        no_change_tried=debugger.no_change_tried,
    )


def bisect(
    changes: Sequence[str],
    run_once: RunOnce,
    *,
    repeats: int | None = None,
    max_runs: int | None = None,
    jobs: int = 1,
    estimate_runs: int = DEFAULT_ESTIMATE_RUNS,
    miss_chance: float = DEFAULT_MISS_CHANCE,
    strategy: str = "auto",
    confirm: bool | None = None,
    seeded: Mapping[frozenset[str], Sequence[FailureKind]] | None = None,
) -> BisectResult:
    """The 1-minimal subset of ``changes`` whose application to the good
    configuration still shows the bad configuration's failure.

    ``run_once(frozenset_of_changes) -> FailureKind`` runs the good configuration
    with those changes applied, once. ``repeats``: clean runs needed to believe a
    pass (None: estimate from ``estimate_runs`` runs of the bad configuration;
    1: deterministic, no estimation, no confirmation re-run). ``max_runs``: stop
    with a partial result after that many runs. ``jobs``: runs at once.
    ``miss_chance``: the chance the answer is wrong that the estimated n allows.
    ``strategy``: "auto" | "one-at-a-time" | "ddmin". ``confirm``: re-run the
    answer at the end (None: unless repeats == 1). ``seeded``: runs already seen
    (a finished run's rows), by configuration: evidence for the failure rate, the
    target and believed passes alike, never run again and not counted in ``runs``.

    Returns a BisectResult (``partial`` when ``max_runs`` ran out); raises
    BisectInterrupted (a KeyboardInterrupt carrying ``.result``) on Ctrl-C.
    """
    names = tuple(changes)
    if len(set(names)) != len(names):
        raise ValueError(f"changes must be distinct, got {list(names)}")
    settings = BisectSettings(repeats, max_runs, jobs, estimate_runs, miss_chance, strategy, confirm)
    debugger = _DeltaDebugger(names, run_once, settings)
    for config, observations in (seeded or {}).items():
        debugger.cache.seed(frozenset(config), observations)
    try:
        return debugger.search()
    except BudgetExhausted:
        debugger.cache.drain()
        _learn_target_so_far(debugger)
        return _result(debugger, stop_reason="max_runs")
    except KeyboardInterrupt:
        debugger.cache.abandon()
        _learn_target_so_far(debugger)
        raise BisectInterrupted(_result(debugger, stop_reason="interrupted")) from None
    finally:
        debugger.cache.close()
