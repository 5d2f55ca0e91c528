"""Trains (a loop of sums), then ends: `python train.py case=at_exit` leaves a native cleanup that faults at
exit; `case=mid_run` faults in the same native code before the loop ends; `case=raise_then_exit` leaves the
cleanup, then fails with its own error, and the cleanup faults as it exits; `case=report_then_exit` does the same
but reports its error as Hydra's run_and_report does (its traceback printed, then sys.exit(1));
`case=usage_caught_then_exit` catches argparse's exit(2) on a bad option, trains with its defaults and ends, and
the cleanup faults as it exits."""

import argparse
import sys
import traceback

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


def run(case: str) -> None:
    if case == "report_then_exit":
        try:
            train("raise_then_exit")
        except Exception:
            traceback.print_exc()
            sys.exit(1)
    elif case == "usage_caught_then_exit":
        register_faulting_cleanup()
        parser = argparse.ArgumentParser()
        parser.add_argument("--steps", type=int, default=3)
        try:
            parser.parse_args(["--steps", "three"])
        except SystemExit:
            print("bad --steps: training with the defaults", flush=True)
        train("defaults")
    else:
        train(case)


if __name__ == "__main__":
    given = dict(arg.split("=", 1) for arg in sys.argv[1:])  # key=value, as a Hydra app takes its overrides
    run(given["case"])
