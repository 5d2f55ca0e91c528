"""persistent_workers=True: a worker keeps a per-worker cache across epochs, and in epoch 2 a cache hit returns
a stale entry of another shape; the worker raises (which worker goes first varies)."""

import torch
from torch.utils.data import DataLoader, Dataset


class Cached(Dataset):
    def __init__(self):
        self.cache: dict = {}

    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i in self.cache:  # only from epoch 2: this worker served i before
            return self.check(self.cache[i], i)
        self.cache[i] = torch.full((4,), float(i))
        return self.cache[i]

    def check(self, item: torch.Tensor, i: int) -> torch.Tensor:
        if item.numel() != 5:
            raise ValueError(f"cached sample {i} has {item.numel()} features, the model expects 5")
        return item


def main() -> None:
    torch.set_num_threads(1)
    loader = DataLoader(Cached(), batch_size=2, num_workers=2, persistent_workers=True)
    for epoch in range(2):
        for batch in loader:
            print(epoch, batch.shape)
