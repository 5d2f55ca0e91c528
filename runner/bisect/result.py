"""What a bisection answers: a BisectResult, its Culprits and the other failures it saw; along a numeric
axis, a Boundary.

What one run did is a crashmatrix.outcome.FailureKind. crashmatrix.bisect.delta_debug produces these,
crashmatrix.bisect.text words them for people and for bisect.json.
"""

from __future__ import annotations

from dataclasses import dataclass

from crashmatrix.bisect.failure_rate import FailureRate
from crashmatrix.outcome import FailureKind

__all__ = ["Culprit", "OtherObservation", "BisectResult", "BisectInterrupted", "Boundary", "BoundaryInterrupted"]


@dataclass(frozen=True)
class Culprit:
    """One change of the answer and the evidence that it is needed."""

    change: str
    tested: tuple[str, ...]  # the changes applied in the run with this one undone
    runs: int  # runs of that configuration
    clean: int  # of which passed
    others: tuple[tuple[FailureKind, int], ...] = ()  # non-pass, non-target outcomes seen there


@dataclass(frozen=True)
class OtherObservation:
    """A run that was neither a pass nor the target failure."""

    changes: tuple[str, ...]
    observation: FailureKind
    count: int


@dataclass(frozen=True)
class BisectResult:
    changes: tuple[str, ...]  # every change from good to bad, caller's order
    minimal: tuple[str, ...]  # the answer, caller's order
    target: FailureKind | None  # None: the bad configuration never failed
    runs: int  # every run_once call, estimation and confirmation included
    repeats: int  # clean runs needed to believe a pass (final value)
    repeats_given: bool  # the caller fixed repeats (no estimation)
    bad_rate: FailureRate | None  # the bad configuration's own sample
    pooled_rate: FailureRate | None  # every configuration known to fail, pooled, when n was set
    miss_per_test: (
        float | None
    )  # chance a failing configuration shows `repeats` clean runs; None when repeats was given
    strategy: str  # "one-at-a-time" | "ddmin" | "" (no search)
    confirmed: bool  # the answer was seen to show the target (re-run unless repeats=1)
    confirm_runs: int
    partial: bool
    stop_reason: str  # "" | "max_runs" | "interrupted"
    culprits: tuple[Culprit, ...]
    others: tuple[OtherObservation, ...]
    good_fails: bool = False  # the good configuration itself showed the target
    no_change_tried: bool = False  # stopped while the bad configuration's rate was being estimated
    seeded: int = 0  # runs counted from a finished run (bisect RUN): evidence, not in `runs`

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


@dataclass(frozen=True)
class Boundary:
    """A numeric axis narrowed (crashmatrix.bisect.boundary): the value nearest the failure believed to
    pass and the nearest that showed it. `listed`: the table's (passes, fails) it started from."""

    axis: str
    passes: int | float
    fails: int | float
    listed: tuple[int | float, int | float]
    target: FailureKind | None  # None: `fails` never showed the table's failure here
    exact: bool  # adjacent integers, or within `tolerance`
    tolerance: float | None  # floats only
    runs: int  # every run started, estimation included
    seeded: int  # the table's runs counted as evidence, not in `runs`
    repeats: int  # clean runs believed a pass
    repeats_given: bool
    rate: FailureRate | None  # the failure's rate, every value that showed it pooled
    miss_per_test: float | None
    partial: bool
    stop_reason: str  # "" | "max_runs" | "interrupted"
    observations: tuple[tuple[int | float, tuple[FailureKind, ...]], ...]  # by value, the table's included
    note: str = ""  # what stopped the search short of a boundary

    @property
    def found(self) -> bool:
        return self.target is not None and not self.note

    def of(self, value: object) -> tuple[FailureKind, ...]:
        return next((kinds for v, kinds in self.observations if v == value), ())


class BoundaryInterrupted(KeyboardInterrupt):
    """Ctrl-C while narrowing an axis; ``.result`` is the Boundary so far (partial)."""

    def __init__(self, result: Boundary):
        super().__init__("boundary search interrupted")
        self.result = result
