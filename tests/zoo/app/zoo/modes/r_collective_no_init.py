"""A metric averaged across ranks with all_reduce, run as a single process with no process group."""

import torch
import torch.distributed as dist


def average_across_ranks(value: torch.Tensor) -> torch.Tensor:
    dist.all_reduce(value)
    return value / dist.get_world_size()


def main() -> None:
    print(average_across_ranks(torch.tensor([0.75])))
