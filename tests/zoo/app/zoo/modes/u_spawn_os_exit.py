"""torch.multiprocessing.spawn, 2 gloo processes training together; at step 2 rank 1 finds its data shard
exhausted and quits with os._exit(3) (no exception, no cleanup), while rank 0 goes on into the next all_reduce."""

import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    shard = list(range(2 if rank == 1 else 6))
    for step in range(6):
        if step >= len(shard):
            os._exit(3)  # "no more data on this rank": leave at once
        grad = torch.full((4,), float(shard[step]))
        dist.all_reduce(grad)
        print(f"rank {rank} step {step} {grad[0].item()}")
    dist.destroy_process_group()


def main() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    mp.spawn(run, args=(2,), nprocs=2)
