"""Datasets of bq_proj."""

import os

import numpy as np
import torch
from PIL import Image
from torch.utils.data import Dataset


class CachedFeatures(Dataset):
    """Features computed once per item into a cache in shared memory, so that every worker (and the next epoch)
    finds them there."""

    def __init__(self, cache: np.ndarray):
        self.cache = cache

    def __len__(self) -> int:
        return self.cache.shape[0]

    def __getitem__(self, i: int) -> torch.Tensor:
        self.cache[i] = np.float32(i) / len(self)  # the item's features, written into its slot
        return torch.from_numpy(self.cache[i, :8].copy())


def write_images(folder: str, n: int) -> list:
    os.makedirs(folder, exist_ok=True)
    paths = []
    for i in range(n):
        path = os.path.join(folder, f"img{i:04d}.png")
        Image.new("RGB", (8, 8), (i % 256, 0, 0)).save(path)
        paths.append(path)
    return paths


class Thumbnails(Dataset):
    """Images opened once and kept for their size and mode (the sampler's buckets), decoded when asked."""

    def __init__(self, paths: list):
        self.paths = paths
        self.opened = {}

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, i: int) -> torch.Tensor:
        if i not in self.opened:
            self.opened[i] = Image.open(self.paths[i])
        img = self.opened[i]
        return torch.tensor([img.size[0], img.size[1], i / len(self)], dtype=torch.float32) / 8
