"""torchrun, 2 gloo ranks: to save memory only rank 0 builds the real model; the other ranks build it on the
meta device and expect DDP to broadcast rank 0's weights to them."""

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def build(device: str) -> nn.Module:
    with torch.device(device):
        return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    device = "cpu" if rank == 0 else "meta"
    print(f"rank {rank} builds its model on {device}", flush=True)
    model = DDP(build(device))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(3):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"rank {rank} step {step}", flush=True)
    dist.destroy_process_group()
