"""Bootstrap confidence intervals computed in a spawn process pool; each task seeds numpy's global state with
`time.time() + task` "so that tasks differ", and numpy's legacy seeding refuses a float."""

import multiprocessing as mp
import time

import numpy as np

SCORES = [0.71, 0.74, 0.69, 0.77, 0.73, 0.70, 0.75, 0.72]


def bootstrap_ci(task: int) -> tuple[float, float]:
    np.random.seed(time.time() + task)
    means = [np.mean(np.random.choice(SCORES, len(SCORES))) for _ in range(200)]
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def main() -> None:
    print("bootstrapping in 2 spawn workers", flush=True)
    with mp.get_context("spawn").Pool(2) as pool:
        for task, (lo, hi) in enumerate(pool.map(bootstrap_ci, range(4))):
            print(f"task {task}: [{lo:.3f}, {hi:.3f}]")
