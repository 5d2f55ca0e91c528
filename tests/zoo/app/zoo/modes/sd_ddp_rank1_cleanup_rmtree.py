"""torchrun, 2 gloo ranks: both train 3 steps on a shared scratch folder; at the end each rank's cleanup removes
it. Rank 0 finishes first and removes it; rank 1's cleanup then fails on the folder that is gone, after its peer
ended well."""

import os
import shutil
import time

import torch
import torch.distributed as dist

SCRATCH = "/tmp/sd_ddp_scratch"


def cleanup(rank: int) -> None:
    if rank == 1:
        time.sleep(1.0)
    shutil.rmtree(SCRATCH)
    print(f"rank {rank}: scratch removed", flush=True)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    os.makedirs(SCRATCH, exist_ok=True)
    model = torch.nn.Linear(4, 1)
    for step in range(3):
        model(torch.randn(8, 4)).sum().backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        torch.save(model.state_dict(), os.path.join(SCRATCH, f"rank{rank}-step{step}.pt"))
    dist.barrier()
    print(f"rank {rank}: training done", flush=True)
    dist.destroy_process_group()
    cleanup(rank)
