"""DataLoader workers started by forkserver; the loader's worker_init_fn (seeding numpy per worker) is defined
inside the function that builds the loader, so it cannot be pickled for the workers."""

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset


def make_loader(seed: int) -> DataLoader:
    def seed_worker(worker_id: int) -> None:
        np.random.seed(seed + worker_id)

    data = TensorDataset(torch.randn(64, 6), torch.randint(0, 2, (64,)))
    return DataLoader(
        data, batch_size=8, num_workers=2, worker_init_fn=seed_worker, multiprocessing_context="forkserver"
    )


def main() -> None:
    for step, (x, _y) in enumerate(make_loader(7)):
        print(step, x.shape)
