"""A training function written for torchrun (it reads LOCAL_RANK and WORLD_SIZE from the environment), started
instead with `torch.multiprocessing.spawn` on 2 processes to debug without torchrun."""

import os

import torch
import torch.multiprocessing as mp


def train(index: int) -> None:
    local_rank = int(os.environ["LOCAL_RANK"])
    world = int(os.environ["WORLD_SIZE"])
    torch.manual_seed(local_rank)
    print(f"process {index}: rank {local_rank} of {world}", flush=True)


def main() -> None:
    print("spawning 2 processes", flush=True)
    mp.spawn(train, nprocs=2)
