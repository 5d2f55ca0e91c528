"""torchrun, 2 gloo ranks: the model's BatchNorm layers converted to SyncBatchNorm (for multi-GPU training) and
run on CPU: SyncBatchNorm's forward refuses a CPU input on every rank."""

from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def build_model() -> torch.nn.Module:
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, padding=1),
        torch.nn.BatchNorm2d(8),
        torch.nn.ReLU(),
        torch.nn.AdaptiveAvgPool2d(1),
        torch.nn.Flatten(),
        torch.nn.Linear(8, 2),
    )


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    torch.manual_seed(0)
    model = torch.nn.SyncBatchNorm.convert_sync_batchnorm(build_model())
    model = DDP(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _step in range(3):
        x, y = torch.randn(8, 3, 16, 16), torch.randint(0, 2, (8,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"rank {rank}: done")
    dist.destroy_process_group()
