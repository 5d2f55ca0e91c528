"""torchrun, 2 gloo ranks: the last rank validates at the end of each epoch, and its validate() ends with the
cleanup it was copied from (dist.destroy_process_group()); in epoch 2 that rank's all_reduce finds no process
group, while rank 0 waits in the same all_reduce."""

import torch
import torch.distributed as dist


def validate(rank: int) -> float:
    score = float(torch.rand(()).item())
    print(f"rank {rank} val {score:.3f}")
    dist.destroy_process_group()
    return score


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    torch.manual_seed(rank)
    for epoch in range(3):
        grad = torch.ones(4) * epoch
        dist.all_reduce(grad)
        if rank == world_size - 1:
            validate(rank)
    dist.destroy_process_group()
