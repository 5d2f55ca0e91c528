"""torchrun, 2 gloo ranks: rank 0 runs a validation pass every 2 steps with torch.set_grad_enabled(False) and never
turns it back on; its next training step's loss has no grad_fn and its backward raises, while rank 1 waits in
DDP's gradient all-reduce."""

import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def validate(model: torch.nn.Module) -> float:
    model.eval()
    torch.set_grad_enabled(False)
    loss = model(torch.randn(32, 8)).pow(2).mean().item()
    model.train()
    return loss


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    model = DDP(torch.nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(6):
        loss = model(torch.randn(16, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
        if step % 2 == 1 and rank == 0:
            print(f"rank 0 val {validate(model.module):.4f}", flush=True)
    dist.destroy_process_group()
    os._exit(0)
