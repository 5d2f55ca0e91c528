"""A dataset that caches each decoded item to disk the first time a worker makes it."""

import os

import torch
from torch.utils.data import Dataset


class CachedDataset(Dataset):
    def __init__(self, n: int, cache_dir: str) -> None:
        self.n = n
        self.cache_dir = cache_dir

    def __len__(self) -> int:
        return self.n

    def decode(self, i: int) -> torch.Tensor:
        return torch.full((16,), float(i))

    def __getitem__(self, i: int) -> torch.Tensor:
        path = os.path.join(self.cache_dir, f"item{i:05d}.pt")
        if os.path.exists(path):
            return torch.load(path)
        x = self.decode(i)
        with open(path, "wb") as f:
            torch.save(x, f)
        return x
