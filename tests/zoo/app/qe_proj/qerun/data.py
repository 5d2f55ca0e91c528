"""Datasets."""

import ctypes

import numpy as np
import torch
from torch.utils.data import Dataset


class Embedded(Dataset):
    """Rows of a feature table the preprocessing built in the main process; each item is read through the
    table's address (a zero-copy view, as the project's C decoder takes it)."""

    def __init__(self, rows: int = 4096, dim: int = 1024):
        self.table = np.random.default_rng(0).standard_normal((rows, dim), dtype=np.float32)
        self.addr, self.dim = self.table.ctypes.data, dim

    def __len__(self) -> int:
        return len(self.table)

    def row(self, i: int) -> np.ndarray:
        buf = (ctypes.c_float * self.dim).from_address(self.addr + 4 * self.dim * i)
        return np.frombuffer(buf, dtype=np.float32).copy()

    def __getitem__(self, i: int) -> torch.Tensor:
        return torch.from_numpy(self.row(i))


class Crops(Dataset):
    """Random 8 MiB crops (a float32 volume each)."""

    def __len__(self) -> int:
        return 64

    def __getitem__(self, i: int) -> torch.Tensor:
        return torch.randn(2, 1024, 1024)
