"""A multiprocessing.Lock shared by the main and the Dataset guards a shared cache file; the main takes it around
the epoch (to write the epoch's manifest at the end) and then iterates a 2-worker DataLoader whose __getitem__
takes the same lock: every worker waits for the lock, the main waits for their batch, for ever."""

import multiprocessing as mp

import torch
from torch.utils.data import DataLoader, Dataset


class CachedDataset(Dataset):
    def __init__(self, lock) -> None:
        self.lock = lock

    def __len__(self) -> int:
        return 64

    def __getitem__(self, i: int) -> torch.Tensor:
        with self.lock:
            return torch.full((4,), float(i))


def main() -> None:
    lock = mp.get_context("fork").Lock()
    loader = DataLoader(CachedDataset(lock), batch_size=8, num_workers=2, multiprocessing_context="fork")
    print("epoch 0", flush=True)
    with lock:
        total = 0.0
        for batch in loader:
            total += float(batch.sum())
        print(f"manifest: total {total}", flush=True)
