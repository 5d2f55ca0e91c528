"""torchrun, 2 gloo ranks: the last rank logs sample images (rank 0 writes checkpoints); it hands W&B one
image as a CHW float array, as it comes out of the batch."""

from datetime import timedelta

import torch
import torch.distributed as dist
import wandb
from torch.nn.parallel import DistributedDataParallel as DDP


def log_samples(x: torch.Tensor, step: int) -> None:
    images = [wandb.Image(x[i].numpy(), caption=f"step {step} sample {i}") for i in range(2)]
    print(f"logged {len(images)} samples", flush=True)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    torch.manual_seed(0)
    model = DDP(torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3, padding=1), torch.nn.AdaptiveAvgPool2d(1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for step in range(4):
        x = torch.rand(4, 3, 16, 16, generator=g)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if rank == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)
        if rank == world_size - 1 and step == 1:
            log_samples(x, step)
    dist.destroy_process_group()
