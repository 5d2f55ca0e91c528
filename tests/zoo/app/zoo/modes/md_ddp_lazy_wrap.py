"""torchrun, 2 gloo ranks: a model whose classifier head is a LazyLinear, wrapped in DistributedDataParallel
before any forward, so its parameters are still uninitialized."""

from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 24), nn.ReLU(), nn.LazyLinear(3))
    print(f"rank {rank}: wrapping the model in DDP")
    ddp = DDP(model)
    x = torch.randn(8, 10)
    loss = ddp(x).pow(2).mean()
    loss.backward()
    dist.destroy_process_group()
