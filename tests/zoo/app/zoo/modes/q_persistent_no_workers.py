"""A DataLoader with persistent_workers=True where the program drops num_workers to 0 for a debug run:
torch refuses the combination when the loader is built."""

import os

import torch
from torch.utils.data import DataLoader, TensorDataset


def make_loader(debug: bool) -> DataLoader:
    data = TensorDataset(torch.randn(32, 4), torch.zeros(32, dtype=torch.long))
    workers = 0 if debug else 4
    return DataLoader(data, batch_size=8, num_workers=workers, persistent_workers=True)


def main() -> None:
    loader = make_loader(debug=os.environ.get("Q_FAST_DEV", "1") == "1")
    for x, _ in loader:
        print(x.shape)
