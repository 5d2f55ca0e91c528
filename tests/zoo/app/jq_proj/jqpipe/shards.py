"""A streaming dataset over record shards, split between the loader's workers."""

import torch
from torch.utils.data import IterableDataset, get_worker_info


class ShardStream(IterableDataset):
    def __init__(self, shards: list[str], samples_per_epoch: int = 256):
        self.shards = shards
        self.samples_per_epoch = samples_per_epoch

    def records(self, shard: str):
        with open(shard) as f:
            for line in f:
                yield torch.tensor([float(v) for v in line.split(",")])

    def __iter__(self):
        info = get_worker_info()
        workers, wid = (info.num_workers, info.id) if info else (1, 0)
        per_worker = len(self.shards) // workers  # shards each worker reads
        mine = self.shards[wid * per_worker : (wid + 1) * per_worker]
        quota = self.samples_per_epoch // workers // per_worker  # samples from each of its shards
        for shard in mine:
            for n, rec in enumerate(self.records(shard)):
                if n == quota:
                    break
                yield rec
