"""torchrun, 2 gloo ranks, each with a DataLoader worker over its own shard: rank 0's shard has a record whose
label is missing from the label map, so rank 0's worker raises KeyError; rank 1 waits in all_reduce."""

import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, Dataset

LABELS = {"cat": 0, "dog": 1}


class Shard(Dataset):
    def __init__(self, rank: int):
        self.names = ["cat", "dog", "cat", "dgo" if rank == 0 else "dog"] * 2

    def __len__(self):
        return len(self.names)

    def __getitem__(self, i):
        return torch.ones(3) * i, LABELS[self.names[i]]


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    loader = DataLoader(Shard(rank), batch_size=4, num_workers=1)
    for x, _y in loader:
        grad = x.sum(0)
        dist.all_reduce(grad)
    dist.destroy_process_group()
    print(f"rank {rank} done")
