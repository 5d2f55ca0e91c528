"""Synthetic 16x16 RGB images of 4 classes (a bright square in one of the four corners)."""

import torch
from torch.utils.data import Dataset

CLASSES = ["top-left", "top-right", "bottom-left", "bottom-right"]


class Corners(Dataset):
    def __init__(self, n: int = 64, seed: int = 0) -> None:
        g = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, len(CLASSES), (n,), generator=g)
        self.noise = torch.rand(n, 3, 16, 16, generator=g) * 0.3

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, i: int):
        x = self.noise[i].clone()
        c = int(self.labels[i])
        r, col = divmod(c, 2)
        x[:, r * 8 : r * 8 + 8, col * 8 : col * 8 + 8] += 0.7
        return x, c


def to_uint8(x: torch.Tensor):
    """A CHW float image in [0, 1] as an HWC uint8 array, as W&B and PIL take it."""
    return (x.clamp(0, 1) * 255).byte().permute(1, 2, 0).numpy()
