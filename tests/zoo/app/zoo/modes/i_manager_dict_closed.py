"""A label cache shared with the DataLoader workers through a multiprocessing.Manager dict, built inside
`with Manager() as manager:` in a helper function; the manager's server is shut down when the block ends, and
the 2 workers' first lookups reach for a server that is gone."""

import multiprocessing as mp

import torch
from torch.utils.data import DataLoader, Dataset


def build_label_cache(n: int):
    with mp.Manager() as manager:
        cache = manager.dict()
        for i in range(n):
            cache[i] = i % 3
        print(f"label cache of {len(cache)} entries", flush=True)
    return cache


class Cached(Dataset):
    def __init__(self, cache, n: int):
        self.cache, self.n = cache, n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        return torch.randn(4), self.cache[i]


def main() -> None:
    cache = build_label_cache(32)
    loader = DataLoader(Cached(cache, 32), batch_size=8, num_workers=2)
    for x, y in loader:
        print(x.shape, y.tolist(), flush=True)
