"""Per-series window building in a process pool: the sales frame is grouped by series and each group's values are
cut into windows of 24 hours with numpy's `sliding_window_view`; one series (a store that opened last week) has
only 10 hours. `future.result()` re-raises the child's error in the main."""

import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pandas as pd

WINDOW = 24


def make_windows(name: str, values: np.ndarray) -> tuple:
    windows = np.lib.stride_tricks.sliding_window_view(values, WINDOW)
    return name, windows.shape[0]


def main() -> None:
    rng = np.random.default_rng(0)
    parts = [
        pd.DataFrame({"series": s, "sales": rng.normal(50, 5, n)})
        for s, n in [("S1", 96), ("S2", 96), ("S7", 10), ("S3", 96)]
    ]
    frame = pd.concat(parts, ignore_index=True)
    with ProcessPoolExecutor(max_workers=2, mp_context=mp.get_context("fork")) as pool:
        futures = [
            pool.submit(make_windows, name, g["sales"].to_numpy()) for name, g in frame.groupby("series", sort=False)
        ]
        for fut in futures:
            name, n = fut.result()
            print(f"{name}: {n} windows", flush=True)
