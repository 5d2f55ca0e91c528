"""torchrun, 2 gloo ranks: the item table is sized from last week's catalogue (300 items), a constant both ranks
share; rank 1's shard of the click log is this week's, with items added since, whose ids run past the table."""

from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

CATALOGUE = 300


def shard(rank: int) -> list[torch.Tensor]:
    g = torch.Generator().manual_seed(rank)
    newest = CATALOGUE + 20 if rank == 1 else CATALOGUE
    return [torch.randint(0, newest, (8, 5), generator=g) for _ in range(4)]


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    model = DDP(nn.Sequential(nn.EmbeddingBag(CATALOGUE, 16), nn.Linear(16, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, ids in enumerate(shard(rank)):
        loss = model(ids).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if rank == 0:
            print(f"step {step} done", flush=True)
    dist.destroy_process_group()
