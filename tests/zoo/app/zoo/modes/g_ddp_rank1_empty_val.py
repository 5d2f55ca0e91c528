"""torchrun, 2 gloo ranks: after training, each rank scores its share of the validation clips (taken as
clips[rank::world_size]) and the accuracies are averaged with all_reduce; the validation list, filtered to
clips of at least 2 s, kept only 1 clip, so rank 1's share is empty and its accuracy divides by 0."""

from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def validation_clips() -> list[tuple[torch.Tensor, int]]:
    g = torch.Generator().manual_seed(0)
    lengths = [0.6, 1.2, 2.4, 0.8, 1.9, 1.1, 0.5, 1.7, 0.9]
    clips = [(torch.randn(8, generator=g), i % 3, s) for i, s in enumerate(lengths)]
    return [(x, y) for x, y, s in clips if s >= 2.0]


def evaluate(model: DDP, clips: list) -> float:
    correct = total = 0
    with torch.no_grad():
        for x, y in clips:
            correct += int(model(x[None]).argmax(1).item() == y)
            total += 1
    return correct / total


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    model = DDP(torch.nn.Linear(8, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for _step in range(4):
        x, y = torch.randn(16, 8, generator=g), torch.randint(0, 3, (16,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    if rank == 0:
        print(f"trained 4 steps, loss {loss.item():.3f}", flush=True)
    clips = validation_clips()[rank::world_size]
    acc = torch.tensor([evaluate(model, clips)])
    dist.all_reduce(acc)
    if rank == 0:
        print(f"val acc {acc.item() / world_size:.3f}", flush=True)
    dist.destroy_process_group()
