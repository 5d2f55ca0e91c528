"""A small augmenting dataset, its seeded loader and the check that two runs with one seed agree."""

import random
import time

import torch
from torch.utils.data import DataLoader, Dataset


class Noisy(Dataset):
    def __init__(self, n: int = 32) -> None:
        self.base = torch.arange(n * 4, dtype=torch.float32).reshape(n, 4)

    def __len__(self) -> int:
        return len(self.base)

    def __getitem__(self, i: int) -> torch.Tensor:
        x = self.base[i].clone()
        if random.random() < 0.5:  # a flip, drawn from Python's random
            x = x.flip(0)
        return x + random.gauss(0.0, 0.1)


def fresh_worker_seed(worker_id: int) -> None:
    # "make sure every worker augments differently"
    random.seed(time.time_ns() + worker_id)


def make_loader(seed: int) -> DataLoader:
    torch.manual_seed(seed)
    return DataLoader(Noisy(), batch_size=8, num_workers=2, worker_init_fn=fresh_worker_seed)


def first_batches(seed: int, n: int = 2) -> list[torch.Tensor]:
    out = []
    for i, batch in enumerate(make_loader(seed)):
        out.append(batch)
        if i + 1 == n:
            break
    return out


def check_reproducible(seed: int) -> None:
    a, b = first_batches(seed), first_batches(seed)
    for i, (x, y) in enumerate(zip(a, b)):
        assert torch.equal(x, y), f"not reproducible: batch {i} differs between two passes with seed {seed}"
    print(f"reproducible with seed {seed}")
