"""torchrun, 2 gloo ranks: after two all_reduce steps rank 1 is killed by SIGKILL (as the kernel's OOM killer
ends a process: no exception, no traceback; here the process sends it to itself); rank 0 waits in the next
all_reduce until torchrun ends it."""

import os
import signal

import torch
import torch.distributed as dist


def load_next_shard(rank: int, step: int) -> torch.Tensor:
    if rank == 1 and step == 2:
        os.kill(os.getpid(), signal.SIGKILL)  # stands for the OOM killer: rank 1's shard is the large one
    return torch.ones(4)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    for step in range(4):
        grad = load_next_shard(rank, step)
        dist.all_reduce(grad)
    dist.destroy_process_group()
    print(f"rank {rank} done")
