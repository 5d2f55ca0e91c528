"""Synthetic evaluation images and a memory-mapped features cache."""

import torch
from torch.utils.data import Dataset


class EvalImages(Dataset):
    def __init__(self, n: int = 32, num_classes: int = 4, classes=None, seed: int = 0):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, 3, 16, 16, generator=g)
        classes = list(classes) if classes is not None else list(range(num_classes))
        self.y = torch.tensor([classes[i % len(classes)] for i in range(n)])

    def __len__(self) -> int:
        return len(self.y)

    def __getitem__(self, i: int):
        return self.x[i], self.y[i]


class CachedFeatures(Dataset):
    """Backbone features cached once with torch.save and read back memory-mapped (no copy per worker)."""

    def __init__(self, path: str, labels: torch.Tensor):
        self.feats = torch.load(path, mmap=True, weights_only=True)
        self.labels = labels

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, i: int):
        row = self.feats[i].clone()
        return row, self.labels[i]
