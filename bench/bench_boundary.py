"""How many runs `bisect RUN` needs to narrow a numeric axis, and how often it is exact.

    python bench/bench_boundary.py [--trials 2000] [--seed 0]

A planted boundary: the target failure (crash SIGSEGV) happens above a threshold, always
(deterministic) or with probability p per run (flaky), between a listed passing value 32 and a
listed failing value 64 (the table's one run of each counted, as `bisect RUN` counts them). Every
threshold from 32 to 63 in turn. Compared with a linear scan that runs every unlisted value between
them as often as the search runs a believed pass (the same evidence per value, without the order):
the ratio is search runs over scan runs, in the same trials.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from crashmatrix.bisect.boundary import narrow  # noqa: E402
from crashmatrix.outcome import FailureKind  # noqa: E402

SEGV = FailureKind("crash", "SIGSEGV")
PASS = FailureKind("pass")
LO, HI = 32, 64


def planted(threshold: int, p: float, rng: random.Random):
    def run_value(value):
        return SEGV if value > threshold and (p >= 1 or rng.random() < p) else PASS

    return run_value


def measure(p: float, trials: int, repeats: int | None, seed: int) -> dict:
    runs, scan, exact = [], [], 0
    for t in range(trials):
        threshold = LO + t % (HI - LO)
        rng = random.Random(seed * 1_000_003 + t * 7919)
        b = narrow("batch", LO, HI, planted(threshold, p, rng), SEGV, repeats=repeats, seeded={LO: [PASS], HI: [SEGV]})
        runs.append(b.runs)
        exact += (b.passes, b.fails) == (threshold, threshold + 1)
        # a linear scan up from the passing end: each value below the threshold run n times clean, the first
        # above it until it fails (1/p runs expected), after the same estimate of the rate at the failing end
        estimate = len(b.of(HI)) - 1  # the table's one run is not the bisect's
        scan.append(estimate + (threshold - LO) * b.repeats + 1 / p)
    return {
        "p": p,
        "median_runs": statistics.median(runs),
        "max_runs": max(runs),
        "exact": exact / trials,
        "ratio": statistics.fmean(runs) / statistics.fmean(scan),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"boundary between {LO} (passes) and {HI} (fails), thresholds {LO}..{HI - 1}, {args.trials} trials each")
    print(f"{'failure rate':>12} {'repeats':>8} {'median runs':>12} {'max runs':>9} {'exact':>7} {'runs / scan':>12}")
    rows = [(1.0, 1, 32), (1.0, None, args.trials)] + [(p, None, args.trials) for p in (0.9, 0.5, 0.3, 0.1)]
    for p, repeats, trials in rows:
        m = measure(p, trials, repeats, args.seed)
        shown = "1" if repeats == 1 else "est."
        print(
            f"{p:>12.1f} {shown:>8} {m['median_runs']:>12g} {m['max_runs']:>9} {m['exact']:>7.1%} {m['ratio']:>12.2f}"
        )


if __name__ == "__main__":
    main()
