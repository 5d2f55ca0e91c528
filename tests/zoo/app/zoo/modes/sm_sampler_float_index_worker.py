"""An evenly spaced subsample of a long recording list, drawn by a custom Sampler from np.linspace: the
indices come out as numpy floats, and the list-backed dataset, in 2 DataLoader workers, is indexed with them."""

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, Sampler


class Clips(Dataset):
    def __init__(self, n: int):
        self.clips = [torch.full((16,), float(i)) for i in range(n)]

    def __len__(self) -> int:
        return len(self.clips)

    def __getitem__(self, i):
        return self.clips[i]


class EvenlySpaced(Sampler):
    """Every k-th clip, spread over the whole list."""

    def __init__(self, n: int, k: int):
        self.positions = np.linspace(0, n - 1, k)

    def __len__(self) -> int:
        return len(self.positions)

    def __iter__(self):
        return iter(self.positions)


def main() -> None:
    data = Clips(100)
    loader = DataLoader(data, batch_size=4, sampler=EvenlySpaced(len(data), 12), num_workers=2)
    print(f"validating on {len(loader.sampler)} clips", flush=True)
    for batch in loader:
        print(batch.mean().item(), flush=True)
