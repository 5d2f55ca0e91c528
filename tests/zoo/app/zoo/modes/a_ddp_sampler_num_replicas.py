"""torchrun, 2 gloo ranks: the DistributedSampler is given `num_replicas` from the config's devices per node
(1, written for a one-GPU run) instead of the world size, so rank 1 gets `rank=1` with 1 replica; rank 0 starts
training and waits in the gradients' all-reduce for rank 1."""

import os
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

CONFIG = {"devices_per_node": 1, "batch_size": 8}


def make_loader(rank: int) -> DataLoader:
    g = torch.Generator().manual_seed(0)
    ds = TensorDataset(torch.randn(128, 16, generator=g), torch.randint(0, 4, (128,), generator=g))
    sampler = DistributedSampler(ds, num_replicas=CONFIG["devices_per_node"], rank=rank, shuffle=True)
    return DataLoader(ds, batch_size=CONFIG["batch_size"], sampler=sampler)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    print(f"rank {rank}/{world_size} local {os.environ['LOCAL_RANK']}", flush=True)
    model = DDP(torch.nn.Linear(16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = make_loader(rank)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if rank == 0 and step % 4 == 0:
            print(f"step {step} loss {loss.item():.3f}", flush=True)
    dist.destroy_process_group()
