"""torchrun, 2 gloo ranks, a float16 model on the CPU: rank 1's shard holds unnormalised readings, its loss
overflows to inf, and the program's non-finite check raises there before backward; rank 0 waits in backward's
gradient all-reduce for a peer that is gone."""

import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1)).half())
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    for step in range(4):
        x = torch.randn(64, 8)
        if rank == 1 and step == 2:
            x = x * 4000  # this shard's raw readings
        loss = model(x.half()).pow(2).mean()
        if not torch.isfinite(loss):
            raise FloatingPointError(f"rank {rank}: loss is {loss.item()} at step {step}")
        print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
        opt.zero_grad()
        loss.backward()
        opt.step()
    dist.destroy_process_group()
    os._exit(0)
