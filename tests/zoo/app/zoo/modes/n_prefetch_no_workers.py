"""A debug run sets num_workers=0 and keeps the tuned prefetch_factor=4."""

import torch
from torch.utils.data import DataLoader, TensorDataset


def make_loader(num_workers: int) -> DataLoader:
    data = TensorDataset(torch.randn(64, 4))
    return DataLoader(data, batch_size=8, num_workers=num_workers, prefetch_factor=4)


def main() -> None:
    for (batch,) in make_loader(num_workers=0):
        print(batch.sum().item())
