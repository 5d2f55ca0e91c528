"""torchrun, 2 gloo ranks: only rank 1 logs a metric with all_reduce (an `if rank == 1:` around it); rank 0 goes on
to the epoch's barrier. Each waits in a collective the other never calls: a hang (gloo's default timeout is 30 min)."""

import torch
import torch.distributed as dist


def log_metric(value: float) -> None:
    t = torch.tensor([value])
    dist.all_reduce(t)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    if rank == 1:
        log_metric(0.5)
    dist.barrier()
    dist.destroy_process_group()
