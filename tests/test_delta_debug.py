"""Delta debugging with pure predicates whose minimal answer is known.

Each predicate plays the role of "apply these changes to the good configuration
and run it": it fails (the target, crash SIGSEGV) when every planted culprit is
among the changes, with probability p for a flaky crash.
"""

from __future__ import annotations

import itertools
import random
import threading
from collections import Counter

import pytest

from crashmatrix.bisect.delta_debug import bisect
from crashmatrix.bisect.failure_rate import (
    clean_runs_needed,
    predictive_clean_chance,
    predictive_runs_needed,
    wilson_lower,
)
from crashmatrix.bisect.result import BisectInterrupted
from crashmatrix.bisect.text import as_bisect_json, detail_lines, rate_line, summary_line
from crashmatrix.outcome import FailureKind

SEGV = FailureKind("crash", "SIGSEGV")
PASS = FailureKind("pass")
TIMEOUT = FailureKind("timeout")


def names(k):
    return [f"c{i}" for i in range(k)]


class Planted:
    """A predicate with planted culprits; counts calls per configuration."""

    def __init__(self, culprits, p=1.0, seed=0, other=None):
        self.culprits = frozenset(culprits)
        self.p = p
        self.rng = random.Random(seed)
        self.other = other or {}  # configuration -> FailureKind instead of pass
        self.calls = Counter()
        self.lock = threading.Lock()

    def __call__(self, changes):
        with self.lock:
            self.calls[changes] += 1
            if self.culprits <= changes and (self.p >= 1 or self.rng.random() < self.p):
                return SEGV
            return self.other.get(changes, PASS)


def placements(k, sizes=(1, 2, 3)):
    for size in sizes:
        for idx in itertools.combinations(range(k), size):
            yield pytest.param(k, idx, id=f"{k}:{','.join(map(str, idx))}")


# --------------------------------------------------------------------------- deterministic


@pytest.mark.parametrize("k,idx", list(placements(7)) + list(placements(12)))
def test_deterministic_one_at_a_time_exact_in_one_run_per_change(k, idx):
    changes = names(k)
    want = tuple(changes[i] for i in idx)
    pred = Planted(want)
    r = bisect(changes, pred, repeats=1)
    assert r.minimal == want
    assert r.target == SEGV
    # the bad run plus one test per change: 3-of-7 costs 8 wherever culprits sit
    assert r.runs == k + 1
    assert sum(pred.calls.values()) == r.runs
    assert r.confirmed and not r.partial
    assert [c.change for c in r.culprits] == list(want)
    assert all(c.clean == c.runs == 1 for c in r.culprits)


@pytest.mark.parametrize("k", range(1, 7))
def test_deterministic_small_counts_every_placement(k):
    changes = names(k)
    for size in range(1, k + 1):
        for idx in itertools.combinations(range(k), size):
            want = tuple(changes[i] for i in idx)
            r = bisect(changes, Planted(want), repeats=1)
            assert (r.minimal, r.runs) == (want, k + 1), idx


# ddmin: worst case measured over every placement (1 + 2 log2 k per culprit and
# the final undo-one round); the bound is what a user can expect
DDMIN_MAX = {(7, 1): 8, (7, 2): 18, (7, 3): 27, (12, 1): 10, (12, 2): 24, (12, 3): 40}


@pytest.mark.parametrize("k,idx", list(placements(7)) + list(placements(12)))
def test_deterministic_ddmin_exact_within_bound(k, idx):
    changes = names(k)
    want = tuple(changes[i] for i in idx)
    r = bisect(changes, Planted(want), repeats=1, strategy="ddmin")
    assert r.minimal == want
    assert r.runs <= DDMIN_MAX[(k, len(idx))]
    # ddmin ends having tested the answer minus each change exactly
    assert all(set(c.tested) == set(want) - {c.change} for c in r.culprits)


def test_deterministic_default_estimates_then_costs_little():
    changes = names(7)
    want = ("c1", "c3", "c5")
    r = bisect(changes, Planted(want))
    assert r.minimal == want
    assert (r.bad_rate.failures, r.bad_rate.runs) == (8, 8)
    assert r.repeats == 3  # 8/8 does not prove p = 1
    assert r.runs <= 8 + 7 + 3 * 2 + 1  # estimation, search, top-ups, confirmation
    assert r.confirmed and r.confirm_runs == 1


def test_summary_line_reads_like_a_sentence():
    changes = ["start_method", "num_workers", "pin_memory", "wandb", "precision"]
    values = {"start_method": "fork", "num_workers": 4, "pin_memory": "true", "wandb": "offline", "precision": "32"}
    r = bisect(changes, Planted({"start_method", "pin_memory", "num_workers"}), repeats=1)
    assert summary_line(r, values) == (
        "crash SIGSEGV needs start_method=fork + num_workers=4 + pin_memory=true; "
        "undoing any one passes (1/1 clean each); 6 runs"
    )
    assert "failure rate not estimated" in rate_line(r)


def test_bisect_json_holds_the_contract_keys():
    good = {"a": "x", "b": "0", "c": "no"}
    bad = {"a": "y", "b": "4", "c": "yes"}
    r = bisect(["a", "b", "c"], Planted({"b"}), repeats=1)
    out = as_bisect_json(r, good, bad)
    assert list(out)[:6] == ["good", "bad", "minimal", "outcome", "signal", "runs"]
    assert out["minimal"] == {"b": "4"}
    assert (out["outcome"], out["signal"], out["runs"]) == ("crash", "SIGSEGV", 4)


# --------------------------------------------------------------------------- flaky


@pytest.mark.slow
def test_flaky_answer_exact_in_at_least_99_percent_of_trials():
    # 2 culprits among 6 changes, every placement in turn, crash rate 0.3, 0.5 and
    # 0.7; the default settings aim at 99% (measured 99.1-99.6% per rate, 99.4% here),
    # so the count is pooled over enough trials to be stable
    changes = names(6)
    spots = list(itertools.combinations(range(6), 2))
    trials, exact, wrong = 0, 0, []
    for p in (0.3, 0.5, 0.7):
        for t in range(1000):
            idx = spots[t % len(spots)]
            want = tuple(changes[i] for i in idx)
            r = bisect(changes, Planted(want, p=p, seed=7919 * t + int(100 * p)))
            trials += 1
            if r.minimal == want:
                exact += 1
            else:
                wrong.append((p, want, r.minimal))
                assert set(want) <= set(r.minimal)  # a wrong answer is too big, never too small
    assert exact / trials >= 0.99, wrong


def test_flaky_numbers_are_exposed_for_the_cli():
    changes = names(7)
    want = ("c0", "c6")
    r = bisect(changes, Planted(want, p=0.5, seed=3))
    assert r.minimal == want
    assert r.bad_rate.runs >= 8 and r.bad_rate.failures >= 1
    assert r.repeats >= clean_runs_needed(r.pooled_rate.estimate, 0.01)
    # each "undo" test has at least n clean runs, and no more than n were paid for
    assert all(c.clean == c.runs == r.repeats for c in r.culprits)
    assert r.miss_per_test <= 0.01
    line = rate_line(r)
    assert line.startswith(f"failure rate {r.bad_rate.failures}/{r.bad_rate.runs}")
    assert f"{r.repeats} clean runs needed to believe a pass (miss chance <=" in line
    assert r.confirmed and r.confirm_runs >= 1
    assert summary_line(r).endswith(f"{r.runs} runs")


def test_repeats_overrides_the_estimate_and_accumulates_in_the_cache():
    changes = names(5)
    pred = Planted({"c2"})
    r = bisect(changes, pred, repeats=4)
    assert r.minimal == ("c2",) and r.repeats == 4 and r.repeats_given
    assert r.bad_rate.runs == 1  # the bad configuration failed at once: no estimation
    # no configuration was run more than n times: every pass has exactly n clean runs
    assert max(pred.calls.values()) <= 4
    assert sum(pred.calls.values()) == r.runs


def test_wilson_lower_bound_is_below_the_estimate():
    assert wilson_lower(5, 10) < 0.5 < wilson_lower(5, 10, z=0) + 1e-9
    assert wilson_lower(8, 8) < 1
    assert clean_runs_needed(0.5, 0.001) == 10  # 0.5 ** 10 < 0.1%


def test_predictive_chance_of_clean_runs_matches_closed_forms():
    # no evidence at all (uniform prior): E[(1 - p) ** k] = 1 / (k + 1)
    assert predictive_clean_chance(0, 0, 9) == pytest.approx(1 / 10)
    assert predictive_runs_needed(0, 0, 0.01) == 99
    # every run failed: Beta(F + 1, 1), E[(1 - p) ** k] = k! (F + 1)! / (F + k + 1)!
    assert predictive_clean_chance(20, 20, 2) == pytest.approx(2 / (22 * 23))
    # half of 20 runs failed: above the known-rate chance 0.5 ** k (the rate is uncertain)
    assert 0.5**10 < predictive_clean_chance(10, 20, 10) < 0.5**7


def test_a_rate_near_one_still_needs_several_clean_runs():
    # 20 of 20 runs failed: a Wilson bound alone would believe a pass after 2
    # clean runs; the predictive chance of 2 clean runs is 0.4%, above a 0.2% budget
    assert clean_runs_needed(wilson_lower(19, 19), 0.002) == 2
    assert predictive_runs_needed(20, 20, 0.002) == 3


@pytest.mark.slow
def test_flaky_answer_exact_across_failure_rates_and_sizes():
    # the default settings aim at a miss under 1% per answer at every failure
    # rate; the cell that comes closest is one culprit among 7 at p = 0.3 (six
    # tests could each be wrongly believed): measured about 99.0-99.1% over
    # 10000 trials, so this checks the pooled rate over all cells
    changes = names(7)
    trials, exact = 0, 0
    for size in (1, 3):
        spots = list(itertools.combinations(range(7), size))
        for p in (0.3, 0.7):
            for t in range(700):
                want = tuple(changes[i] for i in spots[t % len(spots)])
                r = bisect(changes, Planted(want, p=p, seed=104729 * t + 17 * size + int(100 * p)))
                trials += 1
                exact += r.minimal == want
                assert set(want) <= set(r.minimal)
    assert exact / trials >= 0.99


# --------------------------------------------------------------------------- failure identity


def test_a_different_failure_is_not_the_target_and_is_reported():
    changes = names(5)
    # without c1 but with c3 the run times out instead of crashing
    times_out = frozenset({"c0", "c2", "c3", "c4"})
    pred = Planted({"c0", "c1"}, other={times_out: TIMEOUT})
    r = bisect(changes, pred, repeats=1)
    assert r.minimal == ("c0", "c1")
    assert r.target == SEGV
    assert [(o.changes, o.observation) for o in r.others] == [(tuple(sorted(times_out)), TIMEOUT)]
    # The undo of c1 first met the timeout (c3 still applied), which says nothing about {c0} alone:
    # that configuration itself was asked, and passed.
    culprit = {c.change: c for c in r.culprits}["c1"]
    assert r.culprit_is_exact(culprit)
    assert (culprit.clean, culprit.runs, culprit.others) == (1, 1, ())
    assert "timeout" in " ".join(detail_lines(r))


def test_the_target_is_the_bad_configurations_most_frequent_failure():
    seq = iter([TIMEOUT, SEGV, SEGV, TIMEOUT, SEGV, PASS, SEGV, SEGV])

    def run(changes):
        if changes == frozenset({"a", "b"}):
            return next(seq)
        return SEGV if changes == frozenset({"a"}) else PASS

    r = bisect(["a", "b"], run)
    assert r.target == SEGV and (r.bad_rate.failures, r.bad_rate.runs) == (5, 8)
    assert r.minimal == ("a",)
    assert any(o.observation == TIMEOUT and o.count == 2 for o in r.others)


def test_bad_configuration_that_never_fails_says_so():
    r = bisect(names(3), lambda changes: PASS)
    assert r.target is None and not r.found and r.minimal == ()
    assert r.runs == 30  # stretched to the estimate's cap before giving up
    assert summary_line(r) == "the bad configuration did not fail (30 runs)"
    r1 = bisect(names(3), lambda changes: PASS, repeats=1)
    assert (r1.target, r1.runs) == (None, 1)


def test_good_configuration_failing_too_is_reported():
    r = bisect(names(3), lambda changes: SEGV, repeats=1)
    assert r.good_fails and r.minimal == () and not r.found
    assert "the good configuration fails too" in summary_line(r)


# --------------------------------------------------------------------------- stopping early


def test_max_runs_returns_a_partial_answer_that_still_fails():
    changes = names(7)
    want = {"c1", "c5"}
    r = bisect(changes, Planted(want), repeats=1, max_runs=4)
    assert r.partial and r.stop_reason == "max_runs" and r.runs == 4
    assert want <= set(r.minimal)  # best so far: a failing configuration
    assert summary_line(r).startswith("partial (run budget spent): crash SIGSEGV needs")


def test_ctrl_c_raises_with_the_best_answer_so_far():
    changes = names(6)
    pred = Planted({"c4"})
    calls = []

    def run(c):
        calls.append(c)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return pred(c)

    with pytest.raises(BisectInterrupted) as info:
        bisect(changes, run, repeats=1)
    r = info.value.result
    assert r.partial and r.stop_reason == "interrupted"
    assert set(r.minimal) == {"c3", "c4", "c5"}  # c0..c2 were removed before Ctrl-C
    assert isinstance(info.value, KeyboardInterrupt)


# --------------------------------------------------------------------------- cache, jobs


def test_cache_never_runs_a_configuration_twice_when_deterministic():
    changes = names(7)
    pred = Planted({"c2", "c3"})
    bisect(changes, pred, repeats=1, strategy="ddmin")
    assert max(pred.calls.values()) == 1


@pytest.mark.parametrize("jobs", [2, 4])
def test_jobs_give_the_same_answer(jobs):
    changes = names(8)
    for idx in [(0,), (7,), (1, 6), (0, 3, 7), (2, 3, 4)]:
        want = tuple(changes[i] for i in idx)
        serial = bisect(changes, Planted(want), repeats=1)
        parallel = bisect(changes, Planted(want), repeats=1, jobs=jobs)
        assert parallel.minimal == serial.minimal == want
        assert parallel.runs >= serial.runs  # speculative runs are counted
    flaky = bisect(changes, Planted(("c1", "c5"), p=0.6, seed=7), jobs=jobs)
    assert flaky.minimal == ("c1", "c5") and flaky.confirmed


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="distinct"):
        bisect(["a", "a"], Planted({"a"}))
    with pytest.raises(ValueError, match="repeats"):
        bisect(["a"], Planted({"a"}), repeats=0)
    with pytest.raises(ValueError, match="strategy"):
        bisect(["a"], Planted({"a"}), strategy="binary")


def test_undo_evidence_spoiled_by_another_failure_is_asked_again_on_the_answer_itself():
    # The target (SIGSEGV) needs a and b; c on top of anything exits 3 instead: the undo tests of a and
    # b during the search ({b, c} and {a, c}) show that other failure, never a pass.
    def run_once(changes):
        if "c" in changes:
            return FailureKind("fail")
        return FailureKind("crash", "SIGSEGV") if {"a", "b"} <= changes else FailureKind("pass")

    def target_first(changes):  # the full bad configuration shows the target, as the user saw it
        if changes == frozenset("abc"):
            return FailureKind("crash", "SIGSEGV")
        return run_once(changes)

    r = bisect(["a", "b", "c"], target_first, repeats=1)
    assert r.minimal == ("a", "b")
    for culprit in r.culprits:  # each undo was tested on the answer itself, and passed
        assert r.culprit_is_exact(culprit) and culprit.clean == culprit.runs


def test_the_same_outcome_for_another_cause_is_not_the_target():
    # fail fd_exhaustion needs a and b; c alone makes the program fail another way (same outcome word).
    def run_once(changes):
        if {"a", "b"} <= changes:
            return FailureKind("fail", "", "fd_exhaustion")
        if "c" in changes:
            return FailureKind("fail", "", "ValueError: bad value")
        return FailureKind("pass")

    r = bisect(["a", "b", "c"], run_once, repeats=1)
    assert r.target == FailureKind("fail", "", "fd_exhaustion")
    assert set(r.minimal) == {"a", "b"}
    assert "fail (ValueError: bad value)" in {o.observation.label(None, parenthesized=True) for o in r.others}
    out = as_bisect_json(r, {"a": "0", "b": "0", "c": "0"}, {"a": "1", "b": "1", "c": "1"})
    assert (out["outcome"], out["signal"], out["signature"]) == ("fail", "", "fd_exhaustion")


# --------------------------------------------------------------------------- seeded (bisect RUN)


@pytest.mark.parametrize("repeats", [None, 1])
def test_seeded_runs_are_evidence_never_run_again_nor_counted(repeats):
    changes = names(7)
    test = Planted(["c2", "c5"])
    bad, good = frozenset(changes), frozenset()
    seeded = {bad: [SEGV] * 8, good: [PASS] * 8}
    result = bisect(changes, test, repeats=repeats, seeded=seeded)
    assert result.minimal == ("c2", "c5")
    assert result.seeded == 16
    assert result.runs == sum(test.calls.values())  # runs made here only
    # the bad configuration is not measured again before the first step: at most its confirmation
    assert test.calls[bad] <= 1
    if repeats is None:
        assert (result.bad_rate.failures, result.bad_rate.runs) == (8, 8)
    unseeded = bisect(changes, Planted(["c2", "c5"]), repeats=repeats)
    assert unseeded.runs > result.runs
