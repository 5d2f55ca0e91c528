"""torchrun, 2 gloo ranks, each with a 2-worker DataLoader; on rank 1 a worker decoding a large sample is killed
with SIGKILL (as the kernel's OOM killer does) while rank 0 goes on into the step's all_reduce."""

import os
import signal

import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, Dataset


class Shard(Dataset):
    def __init__(self, rank: int):
        self.rank = rank

    def __len__(self) -> int:
        return 16

    def __getitem__(self, i: int) -> torch.Tensor:
        if self.rank == 1 and i == 9:
            os.kill(os.getpid(), signal.SIGKILL)  # what the OOM killer does to a worker that grew too big
        return torch.randn(8)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    for step, batch in enumerate(DataLoader(Shard(rank), batch_size=4, num_workers=2)):
        grad = batch.mean(0)
        dist.all_reduce(grad)
        print(f"rank {rank} step {step} {grad[0].item():.3f}")
    dist.destroy_process_group()
