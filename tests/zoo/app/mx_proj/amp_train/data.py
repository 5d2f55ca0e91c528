"""Synthetic sequences of 16-dim frames, a padding mask, random affine jitter of the frames."""

import torch
from torch.utils.data import Dataset


class Frames(Dataset):
    def __init__(self, n: int = 600, length: int = 8, dtype: torch.dtype = torch.float32, jitter: bool = False):
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(n, length, 16, generator=g)
        self.lengths = torch.randint(2, length + 1, (n,), generator=g)
        self.y = torch.randint(0, 4, (n,), generator=g)
        self.dtype = dtype
        self.jitter = jitter

    def __len__(self) -> int:
        return len(self.y)

    def __getitem__(self, i: int):
        x = self.x[i].to(self.dtype)
        if self.jitter:
            rot = torch.eye(16, dtype=self.dtype) + 0.01 * torch.randn(16, 16).to(self.dtype)
            x = x @ torch.linalg.inv(rot)
        mask = torch.arange(x.shape[0]) < self.lengths[i]
        return x, mask, self.y[i]
