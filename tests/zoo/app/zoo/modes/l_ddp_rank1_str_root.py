"""torchrun, 2 gloo ranks: each rank loads its shard from a data root; rank 0 takes the default (a Path), the
other ranks the root a launcher exported in SHARD_ROOT, a str, and call `.joinpath` on it. Rank 0 goes on to the
first all_reduce of its gradients and waits for rank 1."""

import os
import tempfile
from datetime import timedelta
from pathlib import Path

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

DEFAULT_ROOT = Path(tempfile.gettempdir()) / "l_shards"


def shard_root(rank: int):
    if rank == 0:
        return DEFAULT_ROOT
    return os.environ.get("SHARD_ROOT", str(DEFAULT_ROOT))


def load_shard(rank: int) -> torch.Tensor:
    path = shard_root(rank).joinpath(f"shard_{rank}.pt")
    if path.exists():
        return torch.load(path)
    return torch.randn(64, 16, generator=torch.Generator().manual_seed(rank))


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    model = DDP(torch.nn.Linear(16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = load_shard(rank)
    for step in range(0, 64, 16):
        loss = model(x[step : step + 16]).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        print(f"rank {rank} step {step} loss {loss.item():.3f}", flush=True)
    dist.destroy_process_group()
