"""torchrun, 2 gloo ranks: rank 0 alone makes the run folder and exports it as EN_RUN_DIR (inside `if rank ==
0`); after the first step every rank saves its shard of the state to os.environ["EN_RUN_DIR"]. Rank 1 has no such
variable; rank 0 goes on to the next step's all_reduce and waits for it."""

import os
import tempfile
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    if rank == 0:
        os.environ["EN_RUN_DIR"] = tempfile.mkdtemp(prefix="en_run_")
    model = DDP(torch.nn.Linear(16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(64, 16, generator=torch.Generator().manual_seed(rank))
    for step in range(0, 64, 16):
        loss = model(x[step : step + 16]).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        print(f"rank {rank} step {step} loss {loss.item():.3f}", flush=True)
        run_dir = os.environ["EN_RUN_DIR"]
        torch.save(model.state_dict(), os.path.join(run_dir, f"rank{rank}_step{step}.pt"))
    dist.destroy_process_group()
