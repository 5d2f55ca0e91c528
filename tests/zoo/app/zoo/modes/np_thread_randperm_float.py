"""A class-balanced subsample drawn per class in a ThreadPoolExecutor: each class keeps `np.floor(n * frac)`
samples, a numpy float64, passed to `torch.randperm`, which wants a Python int."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch

COUNTS = {"cat": 120, "dog": 80, "fox": 30}


def keep(name: str, frac: float = 0.25) -> torch.Tensor:
    n = COUNTS[name]
    n_keep = np.floor(n * frac)
    return torch.randperm(n)[: int(n_keep)] if name == "cat" else torch.randperm(n_keep)


def main() -> None:
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = {name: pool.submit(keep, name) for name in COUNTS}
        for name, fut in futures.items():
            print(f"{name}: kept {len(fut.result())}", flush=True)
