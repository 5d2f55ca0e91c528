"""torchrun, 2 gloo ranks on the CPU: each rank pins itself to its own cores before training, laid out for the
8-core nodes it was written on (2 cores a rank: rank 0 on 0-1, rank 1 on 2-3). On a 2-core machine rank 1's
cores do not exist and the kernel refuses the mask; rank 0 goes on into DDP's first broadcast and waits.
"""

import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

CORES_PER_RANK = 2


def pin(rank: int) -> None:
    cores = set(range(rank * CORES_PER_RANK, (rank + 1) * CORES_PER_RANK))
    os.sched_setaffinity(0, cores)
    torch.set_num_threads(CORES_PER_RANK)
    print(f"[rank{rank}] pinned to cores {sorted(cores)}", flush=True)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    pin(rank)
    model = DDP(torch.nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        loss = model(torch.randn(8, 16)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"[rank{rank}] done", flush=True)
    dist.destroy_process_group()
