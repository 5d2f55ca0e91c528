"""Loader workers sized from the machine, `os.cpu_count() - 4` to leave cores for the trainer's threads
(tuned on a 16-core workstation); on a 2-core box the count comes out negative."""

import os

import torch
from torch.utils.data import DataLoader, TensorDataset

RESERVED_CORES = 4


def loader_workers() -> int:
    return (os.cpu_count() or 1) - RESERVED_CORES


def main() -> None:
    data = TensorDataset(torch.randn(64, 8))
    workers = loader_workers()
    print(f"{os.cpu_count()} cores: {workers} loader workers", flush=True)
    loader = DataLoader(data, batch_size=8, num_workers=workers)
    for (x,) in loader:
        print(x.shape, flush=True)
