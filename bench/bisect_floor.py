"""The fewest clean runs per believed pass that any rule can get away with.

    python bench/bisect_floor.py [--failures 10] [--miss 0.002]   (needs scipy, not a dependency)

A flaky bisection believes a pass after n clean runs, with n chosen from the
failures it pooled: F failures (here fixed) seen in N runs of configurations that
fail at an unknown rate p. Any rule n(N) misses a failing configuration with
chance E_p[(1 - p) ** n(N)]. This solves, as a linear program over every
(randomised) rule, for the smallest mean n at p = 0.5 such that the miss stays at
most --miss for every p in --range. For a 3-of-7 bug at p = 0.5 crashmatrix pools
about 10 failures in 19 runs and allows 1%/5 per test; the floor printed here,
times 3 culprits, plus the pooled runs, is the fewest runs any rule of this kind
needs. bench_bisect.py shows how close the default comes.
"""

from __future__ import annotations

import argparse
import math
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--failures", type=int, default=10, help="failures pooled (default 10)")
    ap.add_argument("--miss", type=float, default=0.002, help="miss allowed per test (default 0.002)")
    ap.add_argument("--range", type=float, nargs=2, default=(0.1, 0.9), metavar=("LO", "HI"))
    args = ap.parse_args()
    try:
        import numpy as np
        from scipy.optimize import linprog
    except ImportError:
        print("bisect_floor.py needs numpy and scipy (pip install scipy); crashmatrix does not", file=sys.stderr)
        return 2

    f, miss = args.failures, args.miss
    n_values = range(1, 151)  # clean runs a rule may ask for
    clean_counts = range(200)  # clean runs among the pooled ones (N = f + j)
    index = {(j, n): i for i, (j, n) in enumerate((j, n) for j in clean_counts for n in n_values)}

    def chance(j: int, p: float) -> float:  # negative binomial: j clean runs before the f-th failure
        return math.exp(math.lgamma(f + j) - math.lgamma(j + 1) - math.lgamma(f) + f * math.log(p) + j * math.log1p(-p))

    cost = np.zeros(len(index))
    for (j, n), i in index.items():
        cost[i] = chance(j, 0.5) * n
    rates = np.linspace(args.range[0], args.range[1], 33)
    misses = np.zeros((len(rates), len(index)))
    for r, p in enumerate(rates):
        for (j, n), i in index.items():
            misses[r, i] = chance(j, p) * (1 - p) ** n
    one_rule = np.zeros((len(clean_counts), len(index)))
    for (j, _n), i in index.items():
        one_rule[j, i] = 1
    res = linprog(
        cost,
        A_ub=misses,
        b_ub=np.full(len(rates), miss),
        A_eq=one_rule,
        b_eq=np.ones(len(clean_counts)),
        bounds=(0, None),
        method="highs",
    )
    if not res.success:
        print(f"no rule keeps the miss under {miss} over p in {args.range}: {res.message}")
        return 1
    known = math.log(miss) / math.log(0.5)
    print(
        f"{f} pooled failures, miss <= {miss} per test for p in [{args.range[0]}, {args.range[1]}]: "
        f"mean n at p = 0.5 is at least {res.fun:.2f} (a known p = 0.5 would need {known:.2f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
