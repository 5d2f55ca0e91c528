"""torchrun, 2 gloo ranks: a pretrained backbone and a new head; the "linear probe" recipe freezes the backbone
before DDP wraps the model, and rank 1 reads its recipe from an environment default that says to fine-tune it
all. DDP registers only the parameters that require grad, so the ranks hand it different models."""

import os

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def build() -> nn.Module:
    torch.manual_seed(0)
    backbone = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
    return nn.Sequential(backbone, nn.Linear(32, 4))


def recipe(rank: int) -> str:
    # rank 0 got --recipe probe on its command line; rank 1 fell back to the default
    return "probe" if rank == 0 else os.environ.get("FT_RECIPE", "full")


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    model = build()
    if recipe(rank) == "probe":
        model[0].requires_grad_(False)
    trainable = sum(p.requires_grad for p in model.parameters())
    print(f"rank {rank}: recipe {recipe(rank)}, {trainable} trainable tensors", flush=True)
    ddp = DDP(model)
    opt = torch.optim.SGD([p for p in ddp.parameters() if p.requires_grad], lr=0.1)
    for _step in range(3):
        x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
        loss = nn.functional.cross_entropy(ddp(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    dist.destroy_process_group()
