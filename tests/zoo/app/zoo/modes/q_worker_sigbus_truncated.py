"""A Dataset maps its feature cache with np.memmap; before the epoch the program rebuilds the cache in place
(open 'wb' truncates it to 0 bytes, and the rebuild is not written yet): the forked DataLoader workers read rows
of the old mapping past the file's new end, a real SIGBUS in a worker."""

import os
import tempfile

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class CachedFeatures(Dataset):
    def __init__(self, path: str):
        self.rows = np.memmap(path, dtype=np.float32, mode="r", shape=(64, 1024))

    def __len__(self):
        return 64

    def __getitem__(self, i):
        return torch.from_numpy(np.array(self.rows[i]))


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(), "features.f32")
    np.ones((64, 1024), dtype=np.float32).tofile(path)
    dataset = CachedFeatures(path)
    with open(path, "wb") as cache:  # "refresh the cache": truncated now, rewritten later
        loader = DataLoader(dataset, batch_size=8, num_workers=2)
        for batch in loader:
            cache.write(batch.numpy().tobytes())
