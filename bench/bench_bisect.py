"""How many runs `crashmatrix bisect` needs, and how often it is exact.

    python bench/bench_bisect.py [--trials 5000] [--seed 0]

Planted bugs: the target failure (crash SIGSEGV) happens when every culprit is
among the changes applied to the good configuration, always (deterministic) or
with probability p per run (flaky). 7 axes differ between good and bad; the
culprits sit at every placement in turn. Compared with exhaustive search: every
subset of the 7 changes (2^7 configurations) and, for a flaky failure, each of
them run as often as a bisection runs a pass.

Then the accuracy at other failure rates (0.2 to 0.8), where a flaky bisection
is most likely to be wrong, and the trade-off behind the default width of the
failure-rate bound (failure_rate.WILSON_Z): runs for the goal's bug against accuracy for
the hardest case (one culprit among 7 at p = 0.3: six tests that could each be
wrongly believed to pass).
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

from crashmatrix.bisect import failure_rate  # noqa: E402
from crashmatrix.bisect.delta_debug import bisect  # noqa: E402
from crashmatrix.outcome import FailureKind  # noqa: E402

SEGV = FailureKind("crash", "SIGSEGV")
PASS = FailureKind("pass")
K = 7


def planted(culprits, p, rng):
    def run_once(changes):
        if culprits <= changes and (p >= 1 or rng.random() < p):
            return SEGV
        return PASS

    return run_once


def measure(size, p, trials, repeats, seed, k=K):
    changes = [f"axis{i}" for i in range(k)]
    spots = list(itertools.combinations(range(k), size))
    runs, exact, ns = [], 0, []
    count = len(spots) if p >= 1 and repeats == 1 else max(trials, len(spots))
    for t in range(count):
        idx = spots[t % len(spots)]
        want = tuple(changes[i] for i in idx)
        rng = random.Random(seed * 1_000_003 + t * 7919 + size)
        r = bisect(changes, planted(frozenset(want), p, rng), repeats=repeats)
        runs.append(r.runs)
        ns.append(r.repeats)
        exact += r.minimal == want
    return {
        "trials": count,
        "mean": statistics.mean(runs),
        "max": max(runs),
        "exact": exact / count,
        "exact_low": failure_rate.wilson_lower(exact, count, z=1.96),
        "n": statistics.mean(ns),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=5000, help="trials per goal row (default 5000)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    started = time.time()
    side = max(500, int(args.trials // 2.5))  # trials per cell of the other tables

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
        f"{'exact':>7} {'95% low':>7} {'n':>5} {'exhaustive':>10}  goal"
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
            goal = f"exact >= 99%: {'met' if ok_exact else 'MISSED'}; mean < 60: {'met' if ok_mean else 'MISSED'}"
            verdicts.append(ok_exact and ok_mean)
        elif m["exact"] < 1:
            goal = "deterministic must be exact: MISSED"
            verdicts.append(False)
        print(
            f"{size}-of-{K:<2} {label:<26} {m['trials']:>6} {m['mean']:>9.1f} {m['max']:>8} "
            f"{100 * m['exact']:>6.2f}% {100 * m['exact_low']:>6.2f}% {m['n']:>5.1f} {exhaustive:>10}  {goal}"
        )

    print()
    print(
        f"accuracy at other failure rates, default settings ({side} trials a cell, exact within about 0.4% at 95%: runs mean / exact)"
    )
    rates = (0.2, 0.3, 0.5, 0.7, 0.8)
    print(f"{'bug':<7}" + "".join(f"{'p=' + str(p):>17}" for p in rates))
    for k, size in ((7, 1), (7, 2), (7, 3), (12, 3)):
        cells = []
        for p in rates:
            m = measure(size, p, side, None, args.seed + 2, k=k)
            cells.append(f"{m['mean']:>7.1f} {100 * m['exact']:>6.1f}%  ")
        print(f"{size}-of-{k:<3}" + "".join(f"{c:>17}" for c in cells))

    print()
    print(f"trade-off: width of the failure-rate bound (Wilson z; default marked *), {side} trials a cell")
    print(f"{'z':>6} {'3-of-7 p=0.5 runs':>18} {'exact':>7} {'1-of-7 p=0.3 runs':>18} {'exact':>7}")
    default_z = failure_rate.WILSON_Z
    try:
        for z in (0.5, default_z, 1.0):
            failure_rate.WILSON_Z = z
            a = measure(3, 0.5, side, None, args.seed + 1)
            b = measure(1, 0.3, side, None, args.seed + 1)
            mark = "*" if z == default_z else " "
            print(
                f"{z:>5}{mark} {a['mean']:>18.1f} {100 * a['exact']:>6.1f}% "
                f"{b['mean']:>18.1f} {100 * b['exact']:>6.1f}%"
            )
    finally:
        failure_rate.WILSON_Z = default_z
    print()
    print(
        "n: clean runs needed to believe a pass (mean). default mode: the bad configuration is run "
        ">= 8 times (until 4 failures) to estimate its failure rate; repeats=1 skips that."
    )
    print("95% low: lower end of the 95% Wilson interval on the exact rate.")
    print(f"{time.time() - started:.1f} s")
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
