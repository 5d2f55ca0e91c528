"""Synthetic data: a prefetching iterator in a thread, and a DataLoader whose workers cache decoded shards."""

import os
import queue
import resource
import threading

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def cap_address_space(mb: int) -> None:
    """Hold the job to its memory request (as `ulimit -v` does)."""
    resource.setrlimit(resource.RLIMIT_AS, (mb << 20, resource.RLIM_INFINITY))


class Prefetcher:
    """Makes the next batches in a background thread while the model trains on the current one."""

    def __init__(self, n: int, dim: int) -> None:
        self.q: queue.Queue = queue.Queue(maxsize=4)
        self.n, self.dim = n, dim
        self.thread = threading.Thread(target=self._fill, name="prefetch", daemon=True)
        self.thread.start()

    def _fill(self) -> None:
        for _ in range(self.n):
            self.q.put((torch.randn(16, self.dim), torch.randint(0, 4, (16,))))
        self.q.put(None)

    def __iter__(self):
        while (item := self.q.get()) is not None:
            yield item


class ShardCache(Dataset):
    """Each sample is a decoded shard, written once to the cache folder as .npy for the next epochs."""

    def __init__(self, cache_dir: str, rows: int, dim: int) -> None:
        self.cache_dir, self.rows, self.dim = cache_dir, rows, dim

    def __len__(self) -> int:
        return 4

    def __getitem__(self, i: int):
        path = os.path.join(self.cache_dir, f"shard_{i}.npy")
        decoded = np.random.default_rng(i).standard_normal((self.rows, self.dim)).astype(np.float32)
        np.save(path, decoded)
        return torch.from_numpy(decoded[:8])


def shard_loader(cache_dir: str, rows: int, dim: int) -> DataLoader:
    return DataLoader(ShardCache(cache_dir, rows, dim), batch_size=1, num_workers=2)
