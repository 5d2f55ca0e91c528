"""Gathering each rank's metrics on rank 0 with a list sized by LOCAL_WORLD_SIZE, which mp.spawn never sets.

The script was written for torchrun; under mp.spawn the variable is absent, rank 0's list has one slot for two
ranks, and gather_object fails writing the second rank's object on rank 0.
"""

import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rank_main(rank: int, port: int) -> None:
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=2)
    loss = torch.nn.functional.mse_loss(torch.full((4,), float(rank)), torch.zeros(4)).item()
    metrics = {"rank": rank, "loss": loss}
    slots = int(os.environ.get("LOCAL_WORLD_SIZE", "1"))
    gathered = [None] * slots if rank == 0 else None
    dist.gather_object(metrics, gathered, dst=0)
    if rank == 0:
        print(f"[rank0] metrics: {gathered}", flush=True)
    dist.destroy_process_group()


def main() -> None:
    mp.spawn(rank_main, args=(free_port(),), nprocs=2, join=True)
