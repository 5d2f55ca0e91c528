"""A generator of samples passed to DataLoader as its dataset (it is neither a map-style Dataset nor an
IterableDataset)."""

import torch
from torch.utils.data import DataLoader


def samples(n: int):
    for i in range(n):
        yield torch.full((4,), float(i))


def main() -> None:
    loader = DataLoader(samples(32), batch_size=8)
    for batch in loader:
        print(batch.sum().item())
