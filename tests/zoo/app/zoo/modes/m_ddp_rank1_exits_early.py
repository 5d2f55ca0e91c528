"""torchrun, 2 gloo ranks: each rank stops when its own shard runs out; rank 1's shard is shorter, so rank 1
leaves the loop and exits 0 while rank 0 enters one more all_reduce."""

import torch
import torch.distributed as dist


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    shard = range(3) if rank == 0 else range(2)
    for step in shard:
        grad = torch.ones(4) * step
        dist.all_reduce(grad)
    print(f"rank {rank} done")
