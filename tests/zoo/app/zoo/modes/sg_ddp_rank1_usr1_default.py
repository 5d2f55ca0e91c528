"""torchrun, 2 gloo ranks: a checkpoint is requested by the program sending itself SIGUSR1 at step 3 on every
rank ("the same path as Slurm's warning"); only rank 0 installs the SIGUSR1 handler, since only rank 0 writes
checkpoints. Rank 1 dies of SIGUSR1's default action; rank 0 goes on into the next all_reduce."""

import os
import signal
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    model = DDP(torch.nn.Linear(16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    if rank == 0:
        signal.signal(signal.SIGUSR1, lambda s, f: torch.save(model.state_dict(), os.devnull))
    g = torch.Generator().manual_seed(rank)
    for step in range(8):
        loss = model(torch.randn(8, 16, generator=g)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if rank == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)
        if step == 3:
            os.kill(os.getpid(), signal.SIGUSR1)
    dist.destroy_process_group()
