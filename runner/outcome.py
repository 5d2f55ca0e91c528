"""The outcome words of the contract, as an enum."""

from __future__ import annotations

import enum

NOT_FAILURES = ("pass", "skip")  # the outcome words that are not failures; every other word is one
# `error` says crashmatrix could not run the cell: a failure of the run, nothing about the cell's configuration.
NOT_COUNTED_FAILING = NOT_FAILURES + ("error",)


def counts_as_failing(outcome: str) -> bool:
    """A run that tells something about its cell by failing: what --max-failures counts and rerun --failing picks."""
    return outcome not in NOT_COUNTED_FAILING


class Outcome(str, enum.Enum):
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
        return self.value not in NOT_FAILURES
