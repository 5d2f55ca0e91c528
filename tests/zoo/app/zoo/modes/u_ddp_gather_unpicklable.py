"""torchrun, 2 gloo ranks: after an epoch each rank all_gather_objects its evaluation summary. Rank 1's summary
keeps the generator it drew its hard examples from (rank 0 has no hard examples and stores a list), and
pickling it raises on rank 1, while rank 0 waits inside the same all_gather_object."""

import torch
import torch.distributed as dist


def summary(rank: int, scores: torch.Tensor) -> dict:
    hard = (i for i, s in enumerate(scores.tolist()) if s < 0.2)
    return {"rank": rank, "mean": scores.mean().item(), "hard": hard if rank == 1 else []}


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    torch.manual_seed(rank)
    grad = torch.ones(4)
    dist.all_reduce(grad)
    gathered = [None] * world_size
    dist.all_gather_object(gathered, summary(rank, torch.rand(16)))
    print(gathered)
    dist.destroy_process_group()
