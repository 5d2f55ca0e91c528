"""Datasets."""

import torch
from torch.utils.data import Dataset


class Windows(Dataset):
    def __init__(self, n: int = 64, dim: int = 8):
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(n, dim, generator=g)
        self.y = self.x.sum(1, keepdim=True)

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int):
        return self.x[i], self.y[i]
