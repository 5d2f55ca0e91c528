"""Hang: fork DataLoader workers copy a lock that the program's metrics thread holds at that moment.

A background thread flushes the dataset's access counters to a slow sink while holding STATS_LOCK. The loader's
workers are forked meanwhile; each gets a copy of the lock in its held state, and no thread in the worker will
ever release it. Worker 0's first `__getitem__` waits on it for ever, and the main waits for the batch.
"""

import threading
import time

import torch
from torch.utils.data import DataLoader, Dataset

STATS_LOCK = threading.Lock()
STATS = {"reads": 0}
HOLDING = threading.Event()


def flush_stats() -> None:
    while True:
        with STATS_LOCK:
            HOLDING.set()
            time.sleep(30)  # the metrics sink (a network share) is slow


class Samples(Dataset):
    def __init__(self):
        self.x = torch.randn(64, 8, generator=torch.Generator().manual_seed(0))

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int):
        with STATS_LOCK:
            STATS["reads"] += 1
        return self.x[i]


def main() -> None:
    threading.Thread(target=flush_stats, name="stats-flush", daemon=True).start()
    HOLDING.wait()
    loader = DataLoader(Samples(), batch_size=8, num_workers=2, multiprocessing_context="fork")
    for step, x in enumerate(loader):
        print(f"step {step} mean {x.mean().item():.4f}", flush=True)
