"""Decoded samples cached as one pickle per sample next to the data; a previous run was killed while writing
one, leaving it empty, and the cache is trusted because the file exists. Read in 2 DataLoader workers."""

import os
import pickle
import tempfile

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Cached(Dataset):
    def __init__(self, root: str, n: int):
        self.root = root
        self.n = n

    def __len__(self) -> int:
        return self.n

    def decode(self, i: int) -> np.ndarray:
        return np.random.default_rng(i).standard_normal(16).astype(np.float32)

    def __getitem__(self, i: int) -> torch.Tensor:
        path = os.path.join(self.root, f"{i:04d}.pkl")
        if os.path.exists(path):
            with open(path, "rb") as f:
                sample = pickle.load(f)
        else:
            sample = self.decode(i)
            with open(path, "wb") as f:
                pickle.dump(sample, f)
        return torch.from_numpy(sample)


def main() -> None:
    root = tempfile.mkdtemp()
    ds = Cached(root, 48)
    for i in range(20):
        ds[i]
    open(os.path.join(root, "0013.pkl"), "wb").close()
    print("cache warm: 20 of 48", flush=True)
    loader = DataLoader(ds, batch_size=8, num_workers=2)
    for i, batch in enumerate(loader):
        print(f"batch {i}: {batch.mean().item():.3f}", flush=True)
