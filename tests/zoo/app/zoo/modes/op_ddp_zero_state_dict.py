"""torchrun, 2 gloo ranks: DDP with a ZeroRedundancyOptimizer; the checkpoint is written by rank 0 only,
calling `opt.state_dict()` without every rank first calling `consolidate_state_dict(to=0)`; rank 1 goes on
to the barrier after the checkpoint."""

from datetime import timedelta

import torch
import torch.distributed as dist
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel as DDP


def save_checkpoint(model: DDP, opt: ZeroRedundancyOptimizer, rank: int) -> None:
    if rank == 0:
        state = {"model": model.module.state_dict(), "optimizer": opt.state_dict()}
        torch.save(state, "/tmp/op_ddp_zero_state_dict.pt")
    dist.barrier()


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    torch.manual_seed(0)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4)))
    opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=torch.optim.AdamW, lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    for step in range(3):
        opt.zero_grad()
        model(torch.randn(8, 16, generator=g)).pow(2).mean().backward()
        opt.step()
        if rank == 0:
            print(f"step {step} done", flush=True)
    save_checkpoint(model, opt, rank)
    dist.destroy_process_group()
