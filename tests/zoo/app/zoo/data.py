"""Tiny datasets the loader modes share: a few samples of a few floats each."""

import torch
from torch.utils.data import Dataset


class Samples(Dataset):
    """n samples (x, y); `fault(i)` runs before sample i is made (in a worker, where the loader has workers)."""

    def __init__(self, n: int = 8, fault=None):
        self.n = n
        self.fault = fault

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if self.fault is not None:
            self.fault(i)
        return torch.full((4,), float(i)), torch.tensor(float(i % 2))


def quiet_torch() -> None:
    """One thread per process: the zoo runs many cells at once on a small box."""
    torch.set_num_threads(1)
