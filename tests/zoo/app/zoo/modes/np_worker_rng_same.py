"""Random crops drawn from a numpy Generator made once in the Dataset's __init__: each of the 2 DataLoader workers
gets its own copy of the same Generator state, so both draw the same crops; the program's own check that the
two workers' first batches differ fails."""

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Crops(Dataset):
    def __init__(self):
        self.image = np.arange(64 * 64, dtype=np.float32).reshape(64, 64)
        self.rng = np.random.default_rng(1234)

    def __len__(self) -> int:
        return 32

    def __getitem__(self, i: int):
        top, left = self.rng.integers(0, 64 - 16, size=2)
        return torch.from_numpy(self.image[top : top + 16, left : left + 16].copy())


def main() -> None:
    batches = list(DataLoader(Crops(), batch_size=8, num_workers=2))
    first, second = batches[0], batches[1]  # worker 0's and worker 1's first batches
    print(f"{len(batches)} batches", flush=True)
    assert not torch.equal(first, second), "augmentation is identical across DataLoader workers"
