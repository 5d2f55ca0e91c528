"""torchrun, 2 gloo ranks (timeout 10 s): each rank gathers every rank's validation count. The output list
is sized by the ranks that hold validation data, counted per rank from a local listing; rank 1 holds no
validation shard and counts one rank, so its all_gather gets a list of one tensor for a world of two."""

from datetime import timedelta

import torch
import torch.distributed as dist


def ranks_with_data(rank: int, world_size: int) -> list[int]:
    return [r for r in range(world_size) if r == 0 or rank == 0]


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=10))
    count = torch.tensor([10 * (rank + 1)])
    dist.all_reduce(count.clone())
    counts = [torch.zeros_like(count) for _ in ranks_with_data(rank, world_size)]
    dist.all_gather(counts, count)
    print(f"rank {rank}: counts {[int(c) for c in counts]}")
    dist.destroy_process_group()
