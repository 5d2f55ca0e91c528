"""torchrun, 2 gloo ranks: all_gather of per-rank predictions whose count differs by rank (the last, short batch
on rank 1): gloo refuses the sizes."""

import torch
import torch.distributed as dist


def gather_predictions(preds: torch.Tensor, world_size: int) -> list:
    out = [torch.empty_like(preds) for _ in range(world_size)]
    dist.all_gather(out, preds)
    return out


def run(rank: int, world_size: int) -> None:
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    preds = torch.zeros(8 if rank == 0 else 5)
    print(len(gather_predictions(preds, world_size)))
    dist.destroy_process_group()
