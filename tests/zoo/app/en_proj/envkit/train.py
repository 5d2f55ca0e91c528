"""envkit's training: a linear classifier over synthetic features, one configuration per case."""

import os

import torch
from torch.utils.data import DataLoader, Dataset

from envkit import paths, settings


class Features(Dataset):
    def __init__(self, n: int = 64, spill: bool = False):
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(n, 8, generator=g)
        self.y = (self.x.sum(1) > 0).long()
        self.spill = spill
        self.scratch = None

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        if self.spill and self.scratch is None:
            self.scratch = paths.scratch_dir(f"w{os.getpid()}")
        return self.x[i], self.y[i]


def fit(dataset: Dataset, lr: float = 0.1, batch: int = 16, epochs: int = 1, workers: int = 0) -> float:
    model = torch.nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    loader = DataLoader(dataset, batch_size=batch, num_workers=workers)
    loss = torch.tensor(0.0)
    for epoch in range(epochs):
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f}", flush=True)
    return loss.item()


def run(case: str, epochs: int) -> None:
    print(f"case {case}", flush=True)
    if case == "en_data_root_unset":
        root = paths.data_root()
        fit(Features(), epochs=epochs)
        print(f"data from {root}")
    elif case == "en_world_size_empty":
        dist = settings.dist_settings()
        fit(Features(64 // dist.world_size), epochs=epochs)
    elif case == "en_env_file_comment":
        cfg = settings.train_settings()
        fit(Features(), lr=cfg["lr"], batch=cfg["batch"], epochs=cfg["epochs"])
    elif case == "en_worker_tmpdir_missing":
        fit(Features(spill=True), epochs=epochs, workers=2)
    else:
        raise SystemExit(f"unknown case {case}")
