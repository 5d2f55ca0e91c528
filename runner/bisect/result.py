"""What a bisection answers: a BisectResult, its Culprits and the other failures it saw.

What one run did is a crashmatrix.outcome.FailureKind. crashmatrix.bisect.delta_debug produces these,
crashmatrix.bisect.text words them for people and for bisect.json.
"""

from __future__ import annotations

from dataclasses import dataclass

from crashmatrix.bisect.failure_rate import FailureRate
from crashmatrix.outcome import FailureKind

__all__ = ["Culprit", "OtherObservation", "BisectResult", "BisectInterrupted"]


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
