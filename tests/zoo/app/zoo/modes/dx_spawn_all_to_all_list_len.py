"""torch.multiprocessing.spawn, 2 gloo ranks: expert-parallel dispatch with `dist.all_to_all`, the send list
cut with `tokens.chunk(world_size)`; rank 1's last batch has a single token, and `chunk` returns fewer chunks
than asked (1, not 2)."""

import os
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size, timeout=timedelta(seconds=10))
    tokens = torch.randn(6 if rank == 0 else 1, 8)
    send = list(tokens.chunk(world_size))
    recv = [torch.empty(3, 8) for _ in range(world_size)]
    print(f"rank {rank}: sending {len(send)} chunks", flush=True)
    dist.all_to_all(recv, send)
    dist.destroy_process_group()


def main() -> None:
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(29600 + os.getpid() % 1000))
    mp.spawn(worker, args=(2,), nprocs=2)
