"""The outcome words of the contract: the enum, the order reports list them in, and what counts as failing.

Every "is this a failure" question in the tree is asked here, so the three answers stay one definition each:
- `is_failure`: any word but pass and skip (error included): the run did not do what it should;
- `is_run_error`: error, crashmatrix could not run the cell: a failure of the run, nothing about the cell's
  configuration (explain, bisect and resume leave it out);
- `counts_as_failing`: a failure that tells something about its cell (not error): what --max-failures counts,
  rerun --failing picks, and the reports' "failing" columns and colours count.
"""

from __future__ import annotations

import enum


class Outcome(str, enum.Enum):
    """The outcome words, in the order reports list them."""

    PASS = "pass"
    FAIL = "fail"
    CRASH = "crash"
    WORKER_CRASH = "worker_crash"
    CUDA_ERROR = "cuda_error"
    OOM = "oom"
    TIMEOUT = "timeout"
    NAN = "nan"
    SKIP = "skip"
    ERROR = "error"

    def __str__(self) -> str:  # so f-strings and CSV cells show the word
        return self.value

    @property
    def is_failure(self) -> bool:
        return is_failure(self.value)


ORDER = tuple(o.value for o in Outcome)  # the words as reports list them (counts, legends)

_NOT_FAILURES = frozenset((Outcome.PASS.value, Outcome.SKIP.value))


def is_failure(outcome: str) -> bool:
    """Any outcome but pass and skip, error included."""
    return outcome not in _NOT_FAILURES


def is_run_error(outcome: str) -> bool:
    """crashmatrix could not run the cell: nothing about the cell's configuration."""
    return outcome == Outcome.ERROR.value


def counts_as_failing(outcome: str) -> bool:
    """A run that tells something about its cell by failing: what --max-failures counts and rerun --failing picks."""
    return is_failure(outcome) and not is_run_error(outcome)


def display_rank(outcome: str) -> tuple[int, str]:
    """Sort key listing outcome words in ORDER, any word not in the contract after them, alphabetically."""
    return (ORDER.index(outcome), "") if outcome in ORDER else (len(ORDER), outcome)


def failure_kind(row: dict) -> tuple[str, str, str]:
    """What groups failures: outcome, signal and signature (an older results.csv has no signature)."""
    return (row.get("outcome", ""), row.get("signal", "") or "", row.get("signature", "") or "")
