"""torch.multiprocessing.spawn, 2 gloo processes: both join the group and all_reduce once; then rank 1's native
step aborts the process (as a C++ extension's failed check does: os.abort, SIGABRT), while rank 0 goes on to
the next all_reduce."""

import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def native_step(rank: int) -> None:
    if rank == 1:
        os.abort()  # the extension's CHECK failed on this rank's shard


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    grad = torch.ones(4)
    dist.all_reduce(grad)
    native_step(rank)
    dist.all_reduce(grad)
    dist.destroy_process_group()


def main() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    mp.spawn(run, args=(2,), nprocs=2)
