"""torchrun, 2 gloo ranks, each failing by its own bug at a different line: after the first all_reduce, rank 1's
label map has no entry for its shard (KeyError, at once); rank 0 reads its shard a moment longer, then finds a
row of the wrong width (ValueError). Rank 1 fails first."""

import time

import torch
import torch.distributed as dist

LABEL_MAPS = {0: {"cat": 0, "dog": 1}}  # written for one rank's shard


def load_batch(rank: int, step: int) -> torch.Tensor:
    if step == 1 and rank == 1:
        mapping = LABEL_MAPS[rank]
        return torch.tensor([mapping["cat"]], dtype=torch.float32)
    if step == 1 and rank == 0:
        time.sleep(0.05)  # stands for rank 0's slower read of its larger shard
        row = [0.1, 0.2, 0.3]
        if len(row) != 4:
            raise ValueError(f"rank 0: row of width {len(row)} where 4 features are expected")
    return torch.ones(4)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    for step in range(3):
        batch = load_batch(rank, step)
        dist.all_reduce(batch)
    dist.destroy_process_group()
