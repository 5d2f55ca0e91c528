"""worker_init_fn opens the worker's own shard file, which was never written: FileNotFoundError in the worker's
start-up, reported by the main."""

import os

import torch
from torch.utils.data import DataLoader, TensorDataset


def open_shard(worker_id: int) -> None:
    path = os.path.join("shards", f"part-{worker_id:05d}.bin")
    open(path, "rb").close()


def main() -> None:
    torch.set_num_threads(1)
    data = TensorDataset(torch.randn(8, 4))
    for batch in DataLoader(data, batch_size=2, num_workers=1, worker_init_fn=open_shard):
        print(batch[0].shape)
