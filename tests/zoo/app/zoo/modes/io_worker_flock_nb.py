"""Shards are read under a shared, non-blocking advisory lock (`fcntl.flock(LOCK_SH | LOCK_NB)`) so a reader
never sees a shard being rewritten; the main process took the exclusive lock to rebuild the shard index and
still holds it (the `with` that would release it wraps the whole training loop), so the loader's 2 workers
are refused the lock on their first item."""

import fcntl
import os
import tempfile

import torch
from torch.utils.data import DataLoader, Dataset


class LockedShards(Dataset):
    def __init__(self, folder: str, n: int) -> None:
        self.folder = folder
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> torch.Tensor:
        with open(os.path.join(self.folder, "index.lock"), "rb") as lock:
            fcntl.flock(lock, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return torch.load(os.path.join(self.folder, f"shard{i % 4}.pt"), weights_only=True)


def main() -> None:
    folder = tempfile.mkdtemp(prefix="io-shards-")
    with open(os.path.join(folder, "index.lock"), "wb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for s in range(4):
            torch.save(torch.randn(8), os.path.join(folder, f"shard{s}.pt"))
        print("shard index rebuilt", flush=True)
        model = torch.nn.Linear(8, 2)
        for i, x in enumerate(DataLoader(LockedShards(folder, 16), batch_size=4, num_workers=2)):
            print(f"batch {i} {tuple(model(x).shape)}", flush=True)
