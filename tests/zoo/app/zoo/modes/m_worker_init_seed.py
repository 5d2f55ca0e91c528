"""A worker_init_fn that seeds numpy from torch's per-worker seed, a 64-bit number:
ValueError: Seed must be between 0 and 2**32 - 1, in worker 0."""

import numpy as np
import torch
from torch.utils.data import DataLoader


def seed_worker(worker_id: int) -> None:
    np.random.seed(torch.initial_seed())


def main() -> None:
    torch.set_num_threads(1)
    data = [np.float32(i) for i in range(8)]
    for batch in DataLoader(data, batch_size=2, num_workers=1, worker_init_fn=seed_worker):
        batch.sum()
