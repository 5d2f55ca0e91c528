"""Per-recording datasets joined with ConcatDataset over a glob of the cache folder; the cache was written as
.npy files but the glob still looks for the older .npz name, so it finds nothing."""

import glob
import os
import tempfile

import numpy as np
import torch
from torch.utils.data import ConcatDataset, DataLoader, Dataset


class Recording(Dataset):
    def __init__(self, path: str):
        self.frames = np.load(path)

    def __len__(self) -> int:
        return len(self.frames)

    def __getitem__(self, i: int) -> torch.Tensor:
        return torch.from_numpy(self.frames[i])


def write_cache(root: str) -> None:
    rng = np.random.default_rng(0)
    for r in range(4):
        np.save(os.path.join(root, f"rec_{r}.npy"), rng.standard_normal((50, 40)).astype(np.float32))


def load_split(root: str) -> ConcatDataset:
    paths = sorted(glob.glob(os.path.join(root, "*.npz")))
    print(f"{len(paths)} recordings in {root}", flush=True)
    return ConcatDataset([Recording(p) for p in paths])


def main() -> None:
    root = tempfile.mkdtemp()
    write_cache(root)
    loader = DataLoader(load_split(root), batch_size=16, shuffle=True)
    for batch in loader:
        print(batch.mean().item(), flush=True)
