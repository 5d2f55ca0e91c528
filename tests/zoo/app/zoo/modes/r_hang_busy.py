"""A convergence loop whose condition can never hold: the main thread spins, no exception, no progress."""

import math


def solve(tol: float) -> float:
    x = 1.0
    while abs(x * x - 2.0) > tol:  # float64 cannot get within 1e-20 of sqrt(2)
        x = (x + 2.0 / x) / 2.0
    return x


def main() -> None:
    print(solve(1e-20), math.sqrt(2))
