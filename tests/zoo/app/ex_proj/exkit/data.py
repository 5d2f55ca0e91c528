"""A synthetic classification set, its normalisation statistics and a loader."""

import time

import torch
from torch.utils.data import DataLoader, Dataset


class Points(Dataset):
    def __init__(self, n: int = 256, dim: int = 8, delay_s: float = 0.0) -> None:
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(n, dim, generator=g)
        self.y = (self.x.sum(1) > 0).long()
        self.delay_s = delay_s

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int):
        if self.delay_s:
            time.sleep(self.delay_s)
        return self.x[i], self.y[i]


def stats(ds: Points) -> dict:
    return {"mean": ds.x.mean(0), "std": ds.x.std(0)}


def normaliser(st: dict):
    mean = torch.tensor(st["mean"], dtype=torch.float32)
    std = torch.tensor(st["std"], dtype=torch.float32)
    return lambda x: (x - mean) / std


def loader(ds: Dataset, cfg: dict) -> DataLoader:
    return DataLoader(ds, batch_size=int(cfg["batch_size"]), shuffle=True, num_workers=int(cfg["workers"]))
