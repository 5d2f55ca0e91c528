"""torchrun, 2 gloo ranks: warnings are errors on rank 1 only (the rank being debugged: `STRICT_RANKS = {1}`);
every step clips with the deprecated `nn.utils.clip_grad_norm`. Rank 1 raises torch's FutureWarning after its
first backward; rank 0 goes on to the next step and waits in backward's all-reduce until rank 1's end closes it."""

import warnings

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

STRICT_RANKS = {1}


def run(rank: int, world_size: int) -> None:
    if rank in STRICT_RANKS:
        warnings.simplefilter("error")
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(4):
        x, y = torch.randn(8, 16), torch.randint(0, 2, (8,))
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm(model.parameters(), 1.0)
        opt.step()
        print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
