"""torchrun, 2 gloo ranks: one trial of a search run as a DDP job; each rank draws the trial's weight decay
itself from a generator seeded with the trial's seed plus its rank, from a range
whose low end is negative; rank 1 draws a negative value and AdamW refuses it, while rank 0 trains on to its
first synchronising backward."""

from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

TRIAL_SEED = 10


def sample_weight_decay(rank: int) -> float:
    g = torch.Generator().manual_seed(TRIAL_SEED + rank)  # meant: the trial's seed, the same on every rank
    return float(torch.empty(()).uniform_(-0.05, 0.1, generator=g))


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    wd = sample_weight_decay(rank)
    print(f"rank {rank}: weight_decay {wd:.4f}", flush=True)
    model = DDP(torch.nn.Linear(16, 4))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=wd)
    x = torch.randn(32, 16)
    for step in range(5):
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if rank == 0:
            print(f"step {step} done", flush=True)
    dist.destroy_process_group()
