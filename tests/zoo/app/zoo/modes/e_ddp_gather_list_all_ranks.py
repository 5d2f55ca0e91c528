"""torchrun, 2 gloo ranks: per-rank validation scores gathered to rank 0 with dist.gather, every rank passing a
gather_list (the all_gather habit); torch refuses it on rank 1, the non-destination rank."""

from datetime import timedelta

import torch
import torch.distributed as dist


def validate(rank: int) -> torch.Tensor:
    torch.manual_seed(rank)
    return torch.rand(4)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    scores = validate(rank)
    gathered = [torch.zeros(4) for _ in range(world_size)]
    dist.gather(scores, gather_list=gathered, dst=0)
    if rank == 0:
        print(f"mean score {torch.stack(gathered).mean().item():.3f}", flush=True)
    dist.destroy_process_group()
