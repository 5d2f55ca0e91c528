"""A streaming dataset learns which shard to read from a queue of shard names; the main fills the queue once
training "has started", after its first batch. Each of the 2 DataLoader workers waits in the queue's get() for
its first item, and the main waits for the first batch (no DataLoader timeout): nothing moves."""

import multiprocessing as mp

import torch
from torch.utils.data import DataLoader, Dataset


class ShardStream(Dataset):
    def __init__(self, names, n: int):
        self.names, self.n, self.shard = names, n, None

    def __len__(self) -> int:
        return self.n

    def _shard(self) -> torch.Tensor:
        if self.shard is None:
            name = self.names.get()
            self.shard = torch.randn(64, 8, generator=torch.Generator().manual_seed(hash(name) % 1000))
        return self.shard

    def __getitem__(self, i: int) -> torch.Tensor:
        return self._shard()[i % 64]


def main() -> None:
    names = mp.Queue()
    loader = DataLoader(ShardStream(names, 256), batch_size=16, num_workers=2)
    print("waiting for the first batch", flush=True)
    for i, batch in enumerate(loader):
        if i == 0:
            for k in range(8):
                names.put(f"shard-{k:03d}")
        print(f"batch {i}: {tuple(batch.shape)}", flush=True)
