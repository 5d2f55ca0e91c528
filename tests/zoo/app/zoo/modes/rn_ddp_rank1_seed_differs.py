"""torchrun, 2 gloo ranks: each rank seeds with `base + rank` (meant for its dropout and data order) before
building the model, then the program checks its initial weights against rank 0's; rank 1's differ, it raises,
and rank 0 goes on to the first gradient all_reduce."""

from datetime import timedelta

import torch
import torch.distributed as dist

BASE_SEED = 1234


def weights_checksum(model: torch.nn.Module) -> torch.Tensor:
    return torch.stack([p.detach().double().sum() for p in model.parameters()]).sum().reshape(1)


def check_same_init(model: torch.nn.Module, rank: int) -> None:
    mine = weights_checksum(model)
    ref = mine.clone()
    dist.broadcast(ref, src=0)
    if not torch.allclose(mine, ref):
        raise AssertionError(f"rank {rank}: initial weights differ from rank 0's (seed {BASE_SEED + rank})")


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    torch.manual_seed(BASE_SEED + rank)
    model = torch.nn.Linear(16, 4)
    check_same_init(model, rank)
    print(f"rank {rank}: initial weights agree", flush=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _step in range(3):
        loss = model(torch.randn(8, 16)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
            p.grad /= world_size
        opt.step()
    dist.destroy_process_group()
