"""Per-feature statistics kept as tensors for the normaliser: `torch.from_numpy(x.mean())` of a numpy
reduction, which is a numpy float64 scalar, not an array."""

import numpy as np
import torch


def stats(table: np.ndarray) -> dict:
    out = {}
    for j, name in enumerate(["age", "income", "score"]):
        col = table[:, j]
        out[name] = (torch.from_numpy(col.mean()), torch.from_numpy(col.std()))
    return out


def main() -> None:
    table = np.random.default_rng(0).normal(size=(100, 3))
    print("table", table.shape, flush=True)
    for name, (mu, sd) in stats(table).items():
        print(f"{name}: {mu.item():.3f} +- {sd.item():.3f}", flush=True)
