"""Sliding windows cut with `np.lib.stride_tricks.as_strided` (no copy) in a Dataset read by 2 DataLoader workers;
the hop between windows comes from the config in seconds (3600) and goes into the strides as if it were rows, so
each window starts 3600 rows after the last, far past the end of the 240-hour series' buffer."""

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

WINDOW = 24
HOP_S = 3600  # the config's hop, in seconds


class StridedWindows(Dataset):
    def __init__(self, values: np.ndarray):
        step = values.strides[0]
        n = (len(values) - WINDOW) // 1 + 1  # windows an hour apart
        self.windows = np.lib.stride_tricks.as_strided(values, shape=(n, WINDOW), strides=(step * HOP_S, step))

    def __len__(self):
        return len(self.windows)

    def __getitem__(self, i):
        return torch.tensor(self.windows[i])


def main() -> None:
    values = np.random.default_rng(0).normal(50, 5, 240)
    loader = DataLoader(StridedWindows(values), batch_size=32, num_workers=2)
    for k, batch in enumerate(loader):
        print(f"batch {k} mean {batch.mean().item():.3f}", flush=True)
