"""Every run of a bisection, cached per configuration, up to ``jobs`` at once.

The search (crashmatrix.bisect.delta_debug) asks for runs of configurations (frozensets of
changes); each run's FailureKind (what it did) is appended to that configuration's list, so
nothing is run twice needlessly and a configuration with 3 clean runs needs only
n - 3 more. With jobs > 1, runs go to a thread pool calling the injected
``run_once``; results are recorded in submission order, so the cache does not
depend on thread timing. ``max_runs`` is enforced here: starting a run past it
raises BudgetExhausted.
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Sequence
from typing import Callable

from crashmatrix.outcome import FailureKind

__all__ = ["BudgetExhausted", "RunCache", "RunOnce"]

RunOnce = Callable[[frozenset[str]], FailureKind]


class BudgetExhausted(Exception):
    """``max_runs`` runs were started: no further run may start."""


class RunCache:
    def __init__(self, run_once: RunOnce, *, jobs: int, max_runs: int | None):
        self.run_once = run_once
        self.jobs = jobs
        self.max_runs = max_runs
        self.observations: dict[frozenset[str], list[FailureKind]] = {}
        self.inflight: dict[cf.Future, frozenset[str]] = {}
        self.inflight_count: dict[frozenset[str], int] = {}
        self.runs = 0  # every run started, wasted speculative ones included
        self.seeded = 0  # runs counted as evidence without being run here (a finished run's rows)
        self.pool = cf.ThreadPoolExecutor(max_workers=jobs) if jobs > 1 else None

    @property
    def concurrent(self) -> bool:
        return self.pool is not None

    def of(self, config: frozenset[str]) -> list[FailureKind]:
        return self.observations.get(config, [])

    def count(self, config: frozenset[str]) -> int:
        return len(self.observations.get(config, ()))

    def shows(self, config: frozenset[str], target: FailureKind | None) -> bool:
        return target in self.observations.get(config, ())

    def seed(self, config: frozenset[str], observations: Sequence[FailureKind]) -> None:
        """Runs of ``config`` seen before the bisection (a finished run's rows): evidence like any other run,
        but not run here, so neither ``runs`` nor the budget counts them."""
        for obs in observations:
            self._record(config, obs)
        self.seeded += len(observations)

    def budget_spent(self) -> bool:
        return self.max_runs is not None and self.runs >= self.max_runs

    def start(self, config: frozenset[str]) -> None:
        """One run of ``config``: done at once without a pool, else submitted."""
        if self.budget_spent():
            raise BudgetExhausted()
        self.runs += 1
        if self.pool is None:
            self._record(config, self.run_once(config))
        else:
            fut = self.pool.submit(self.run_once, config)
            self.inflight[fut] = config
            self.inflight_count[config] = self.inflight_count.get(config, 0) + 1

    def _record(self, config: frozenset[str], obs: FailureKind) -> None:
        if not isinstance(obs, FailureKind):
            raise TypeError(f"run_once must return a FailureKind, got {obs!r}")
        self.observations.setdefault(config, []).append(obs)

    def collect(self, block: bool) -> None:
        """Record the runs that have finished (waiting for one when ``block``)."""
        if not self.inflight:
            return
        done, _ = cf.wait(list(self.inflight), timeout=None if block else 0, return_when=cf.FIRST_COMPLETED)
        # record in submission order so the cache does not depend on thread timing
        for fut in [f for f in self.inflight if f in done]:
            config = self.inflight.pop(fut)
            self.inflight_count[config] -= 1
            self._record(config, fut.result())

    def drain(self) -> None:
        while self.inflight:
            self.collect(block=True)

    def fill_slots(
        self, candidates: Sequence[frozenset[str]], first_open: int, n: int, target: FailureKind | None
    ) -> bool:
        """Give free slots to the earliest undecided candidates (n runs each); True if any run started."""
        started = False
        if self.pool is None:
            self.start(candidates[first_open])
            return True
        free = self.jobs - len(self.inflight)
        for config in candidates[first_open:]:
            if free <= 0:
                break
            if self.shows(config, target):
                break  # it decides the round if everything before it passes
            want = n - self.count(config) - self.inflight_count.get(config, 0)
            while want > 0 and free > 0:
                if self.budget_spent():
                    return started
                self.start(config)
                started = True
                want -= 1
                free -= 1
        return started

    def abandon(self) -> None:
        """Ctrl-C: stop waiting for runs in flight and start none of those queued."""
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True)
