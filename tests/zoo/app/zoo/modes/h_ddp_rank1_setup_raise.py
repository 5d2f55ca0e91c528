"""torchrun, 2 gloo ranks: rank 1 fails in its own setup (its shard's label map lacks a class) before the model is
wrapped, while rank 0 is already in DDP's first broadcast; torchrun then stops rank 0."""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

LABEL_MAPS = [{"cat": 0, "dog": 1, "bird": 2}, {"cat": 0, "dog": 1}]  # rank 1's shard never saw a bird


def class_ids(rank: int, names: list) -> list:
    mapping = LABEL_MAPS[rank]
    return [mapping[n] for n in names]


def run(rank: int, world_size: int) -> None:
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    print(class_ids(rank, ["cat", "dog", "bird"]))
    model = DistributedDataParallel(torch.nn.Linear(4, 3))
    model(torch.randn(2, 4)).sum().backward()
    dist.destroy_process_group()
