"""The main process takes an exclusive fcntl.flock on the dataset's cache lock file while it "prepares" the cache,
and starts iterating a DataLoader inside that block; each forked worker's __getitem__ opens the lock file again
and asks for a shared lock before reading: it waits for the main, which waits for the worker's batch."""

import fcntl
import os
import tempfile

import torch
from torch.utils.data import DataLoader, Dataset

LOCK = os.path.join(tempfile.gettempdir(), f"q_cache_{os.getpid()}.lock")


class LockedCache(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        with open(LOCK, "a") as f:
            fcntl.flock(f, fcntl.LOCK_SH)
            return torch.full((4,), float(i))


def main() -> None:
    with open(LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for batch in DataLoader(LockedCache(), batch_size=4, num_workers=2):
            print(batch.shape)
