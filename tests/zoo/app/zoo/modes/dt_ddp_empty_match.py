"""torchrun, 2 gloo ranks: a small detector under DDP whose anchor matcher takes each anchor's best
ground-truth box with `iou.max(dim=1)`; rank 1's shard holds an image with no annotated object (a crowd-only
image whose boxes were filtered out), so its IoU matrix has no columns. Rank 0 goes on to the backward's
all-reduce."""

from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

ANCHORS = torch.tensor([[x, y, x + 16.0, y + 16.0] for x in range(0, 64, 8) for y in range(0, 64, 8)])


def box_iou(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    lt = torch.max(a[:, None, :2], b[:, :2])
    rb = torch.min(a[:, None, 2:], b[:, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area = lambda t: (t[:, 2] - t[:, 0]) * (t[:, 3] - t[:, 1])  # noqa: E731
    return inter / (area(a)[:, None] + area(b) - inter)


def shard(rank: int) -> list[tuple[torch.Tensor, torch.Tensor]]:
    g = torch.Generator().manual_seed(rank)
    items = []
    for i in range(4):
        k = 0 if (rank == 1 and i == 2) else 2
        xy = torch.randint(0, 40, (k, 2), generator=g).float()
        items.append((torch.randn(8, generator=g), torch.cat([xy, xy + 20], 1)))
    return items


def loss_for(model: DDP, x: torch.Tensor, boxes: torch.Tensor) -> torch.Tensor:
    iou = box_iou(ANCHORS, boxes)
    best, _ = iou.max(dim=1)
    objectness = model(x)
    return torch.nn.functional.binary_cross_entropy_with_logits(objectness, (best > 0.3).float())


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    model = DDP(torch.nn.Linear(8, len(ANCHORS)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, (x, boxes) in enumerate(shard(rank)):
        loss = loss_for(model, x, boxes)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if rank == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
