"""torchrun, 2 gloo ranks: the hidden width comes from a per-host settings file; rank 1's host still has last
week's (64, not 32), so the ranks build different models and wrap them in DDP."""

import os
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

HOST_SETTINGS = {0: {"hidden": 32}, 1: {"hidden": 64}}


def build(rank: int) -> torch.nn.Module:
    hidden = HOST_SETTINGS[rank]["hidden"]
    return torch.nn.Sequential(torch.nn.Linear(16, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 4))


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    print(f"rank {rank} on {os.uname().nodename}: building the model", flush=True)
    model = DDP(build(rank))
    model(torch.randn(8, 16)).sum().backward()
    dist.destroy_process_group()
