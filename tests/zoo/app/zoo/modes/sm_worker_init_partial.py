"""A seeding worker_init_fn in the mmdetection style, `seed_worker(worker_id, num_workers, rank, seed)`,
bound with functools.partial for num_workers and seed only: DataLoader calls it with worker_id in each
worker, and the call lacks `rank`."""

import functools
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset


def seed_worker(worker_id: int, num_workers: int, rank: int, seed: int) -> None:
    worker_seed = num_workers * rank + worker_id + seed
    np.random.seed(worker_seed)
    random.seed(worker_seed)


def main() -> None:
    data = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    init = functools.partial(seed_worker, num_workers=2, seed=42)
    loader = DataLoader(data, batch_size=8, shuffle=True, num_workers=2, worker_init_fn=init)
    for x, _y in loader:
        print(x.shape, flush=True)
