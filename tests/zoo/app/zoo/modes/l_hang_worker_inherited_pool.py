"""A feature-extraction Pool made once at import, beside a DataLoader with 2 (forked) workers whose dataset hands
each item's decoding to that pool: in the worker, the copied Pool has no handler threads and no processes of its
own, so `pool.apply` waits for a result that never comes; the main waits for the first batch."""

import multiprocessing as mp

import torch
from torch.utils.data import DataLoader, Dataset


def decode(i: int) -> list[float]:
    return [float(i)] * 4


POOL = None


class Decoded(Dataset):
    def __len__(self) -> int:
        return 64

    def __getitem__(self, i: int) -> torch.Tensor:
        return torch.tensor(POOL.apply(decode, (i,)))


def main() -> None:
    global POOL
    POOL = mp.get_context("fork").Pool(2)
    print("pool ready:", POOL.apply(decode, (1,)), flush=True)
    loader = DataLoader(Decoded(), batch_size=8, num_workers=2)
    print("waiting for the first batch", flush=True)
    for batch in loader:
        print(batch.shape, flush=True)
