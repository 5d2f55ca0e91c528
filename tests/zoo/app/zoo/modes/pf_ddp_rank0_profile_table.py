"""torchrun, 2 gloo ranks: only rank 0 profiles the first epoch and prints the op table sorted by a GPU-time
key on a CPU run (`sort_by="gpu_time_total"`, not a column of the table); rank 1 goes on to the next epoch's
gradient all-reduce and waits for rank 0."""

from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def epoch(model, opt, rank: int, n: int) -> float:
    g = torch.Generator().manual_seed(rank)
    loss = torch.zeros(())
    for _ in range(n):
        loss = model(torch.randn(16, 32, generator=g)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def run(rank: int, world_size: int) -> None:
    torch.set_num_threads(1)
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))
    model = DDP(torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for ep in range(3):
        if rank == 0 and ep == 0:
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
                loss = epoch(model, opt, rank, 4)
            print(prof.key_averages().table(sort_by="gpu_time_total", row_limit=8), flush=True)
        else:
            loss = epoch(model, opt, rank, 4)
        print(f"rank {rank} epoch {ep} loss {loss:.4f}", flush=True)
    dist.destroy_process_group()
