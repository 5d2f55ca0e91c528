"""Trains (a loop of sums), then ends: `python train.py case=at_exit` leaves a native cleanup that faults at
exit; `case=mid_run` faults in the same native code before the loop ends; `case=raise_then_exit` leaves the
cleanup, then fails with its own error, and the cleanup faults as it exits."""

import sys

from cleanup.native import fault_now, register_faulting_cleanup


def train(case: str) -> None:
    if case in ("at_exit", "raise_then_exit"):
        register_faulting_cleanup()
    total = 0
    for step in range(3):
        total += step
        if case == "mid_run" and step == 1:
            fault_now()
        if case == "raise_then_exit" and step == 2:
            raise ValueError(f"loss is nan at step {step}")
    print(f"trained: {total}", flush=True)


if __name__ == "__main__":
    given = dict(arg.split("=", 1) for arg in sys.argv[1:])  # key=value, as a Hydra app takes its overrides
    train(given["case"])
