"""torchrun, 2 gloo ranks (process-group timeout 10 s): after training, rank 0 saves the checkpoint and then
calls dist.barrier() "so the others wait for the file"; the other rank never calls that barrier: it finishes,
destroys its process group and exits 0, while rank 0 waits in the barrier."""

import os
import tempfile
from datetime import timedelta

import torch
import torch.distributed as dist


def save(state: dict) -> None:
    torch.save(state, os.path.join(tempfile.mkdtemp(prefix="w_ddp_barrier-"), "last.pt"))
    dist.barrier()


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=10))
    weights = torch.ones(4) * rank
    for _ in range(3):
        dist.all_reduce(weights)
        weights /= world_size
    dist.barrier()
    if rank == 0:
        save({"weights": weights})
    print(f"rank {rank} done")
    dist.destroy_process_group()
