"""How many runs `crashmatrix bisect` needs, and how often it is exact.

    python bench/bench_bisect.py [--trials 1000] [--seed 0]

Planted bugs: the target failure (crash SIGSEGV) happens when every culprit is
among the changes applied to the good configuration, always (deterministic) or
with probability p per run (flaky). 7 axes differ between good and bad; the
culprits sit at every placement in turn. Compared with exhaustive search: every
subset of the 7 changes (2^7 configurations) and, for a flaky failure, each of
them run as often as a bisection runs a pass.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from runner import dd  # noqa: E402
from runner.dd import Observation, bisect  # noqa: E402

SEGV = Observation("crash", "SIGSEGV")
PASS = Observation("pass")
K = 7
CHANGES = [f"axis{i}" for i in range(K)]


def planted(culprits, p, rng):
    def run_once(changes):
        if culprits <= changes and (p >= 1 or rng.random() < p):
            return SEGV
        return PASS

    return run_once


def measure(size, p, trials, repeats, seed):
    spots = list(itertools.combinations(range(K), size))
    runs, exact, ns = [], 0, []
    count = len(spots) if p >= 1 and repeats == 1 else max(trials, len(spots))
    for t in range(count):
        idx = spots[t % len(spots)]
        want = tuple(CHANGES[i] for i in idx)
        rng = random.Random(seed * 1_000_003 + t * 7919 + size)
        r = bisect(CHANGES, planted(frozenset(want), p, rng), repeats=repeats)
        runs.append(r.runs)
        ns.append(r.repeats)
        exact += r.minimal == want
    return {
        "trials": count,
        "mean": statistics.mean(runs),
        "max": max(runs),
        "exact": exact / count,
        "n": statistics.mean(ns),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=1000, help="trials per flaky row (default 1000)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    started = time.time()

    rows = []
    for p, repeats, label in [
        (1.0, 1, "deterministic, repeats=1"),
        (1.0, None, "deterministic, default"),
        (0.5, None, "p=0.5, default"),
    ]:
        for size in (1, 2, 3):
            rows.append((label, size, p, measure(size, p, args.trials, repeats, args.seed)))

    subsets = 2**K
    head = (
        f"{'bug':<6} {'mode':<26} {'trials':>6} {'runs mean':>9} {'runs max':>8} "
        f"{'exact':>7} {'n':>5} {'exhaustive':>10}  goal"
    )
    print(f"bisect over {K} changed axes; exhaustive = every subset of the changes (2^{K} = {subsets}),")
    print(f"each run n times to believe a pass; the full product of {K} two-valued axes is also {subsets} cells,")
    print(f"of {K} three-valued axes {3**K}")
    print()
    print(head)
    print("-" * len(head))
    verdicts = []
    for label, size, p, m in rows:
        exhaustive = subsets * max(1, round(m["n"]))
        goal = ""
        if label.startswith("deterministic, repeats=1") and size == 3:
            ok = m["max"] <= 8 and m["exact"] == 1
            goal = f"max <= 8 wherever culprits sit: {'met' if ok else 'MISSED'}"
            verdicts.append(ok)
        elif p < 1:
            ok_exact = m["exact"] >= 0.99
            ok_mean = m["mean"] < 60
            goal = (
                f"exact >= 99%: {'met' if ok_exact else 'MISSED'}; "
                f"mean < 60: {'met' if ok_mean else 'MISSED'}"
            )
            verdicts.append(ok_exact and ok_mean)
        elif m["exact"] < 1:
            goal = "deterministic must be exact: MISSED"
            verdicts.append(False)
        print(
            f"{size}-of-{K:<2} {label:<26} {m['trials']:>6} {m['mean']:>9.1f} {m['max']:>8} "
            f"{100 * m['exact']:>6.1f}% {m['n']:>5.1f} {exhaustive:>10}  {goal}"
        )
    print()
    print("trade-off: how conservative the failure-rate bound is (Wilson z; default marked *)")
    print(f"{'z':>6} {'p':>4} {'bug':<6} {'trials':>6} {'runs mean':>9} {'exact':>7}")
    default_z = dd.WILSON_Z
    try:
        for z in (0.75, default_z, 1.5):
            dd.WILSON_Z = z
            for p in (0.3, 0.5):
                m = measure(3, p, args.trials, None, args.seed + 1)
                mark = "*" if z == default_z else " "
                print(f"{z:>5}{mark} {p:>4} {'3-of-7':<6} {m['trials']:>6} {m['mean']:>9.1f} {100 * m['exact']:>6.1f}%")
    finally:
        dd.WILSON_Z = default_z
    print()
    print(
        "n: clean runs needed to believe a pass (mean). default mode: the bad configuration is run "
        ">= 8 times (until 4 failures) to estimate its failure rate; repeats=1 skips that."
    )
    print(f"{time.time() - started:.1f} s")
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
