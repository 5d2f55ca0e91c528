"""DDP wrapped around a CPU model with device_ids=[local_rank], as the GPU recipe does."""

import os
import tempfile

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def wrap(model: torch.nn.Module, local_rank: int) -> DDP:
    return DDP(model, device_ids=[local_rank])


def main() -> None:
    torch.set_num_threads(1)
    store = os.path.join(tempfile.mkdtemp(), "rendezvous")
    dist.init_process_group("gloo", init_method=f"file://{store}", rank=0, world_size=1)
    try:
        wrap(torch.nn.Linear(4, 2), 0)
    finally:
        dist.destroy_process_group()
