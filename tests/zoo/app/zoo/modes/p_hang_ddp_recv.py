"""torch.multiprocessing.spawn, 2 gloo processes: rank 1 waits in dist.recv for rank 0's tensor; rank 0 sends
only when it has a message for rank 1 (never here) and goes on to a barrier. Both wait forever (gloo's default
timeout is 30 minutes); nothing printed."""

import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    stats = torch.zeros(4)
    if rank == 0:
        pending = [m for m in ["resync"] if m == "stop"]
        for _ in pending:
            dist.send(stats, dst=1)
    else:
        dist.recv(stats, src=0)
    dist.barrier()
    dist.destroy_process_group()


def main() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    mp.spawn(run, args=(2,), nprocs=2)
