"""torchrun, 2 gloo ranks: validation counts correct predictions in an int64 tensor and averages the count over the
ranks with all_reduce(op=ReduceOp.AVG), copied from a float-metric line; an average of integers is not an
integer."""

import torch
import torch.distributed as dist


def correct_count(rank: int) -> torch.Tensor:
    preds = torch.arange(10) % 3
    labels = (torch.arange(10) + rank) % 3
    return (preds == labels).sum()


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    loss = torch.tensor(0.5 + rank)
    dist.all_reduce(loss, op=dist.ReduceOp.AVG)
    correct = correct_count(rank)
    dist.all_reduce(correct, op=dist.ReduceOp.AVG)
    print(f"rank {rank}: loss {loss.item():.2f}, correct {correct.item()}")
    dist.destroy_process_group()
