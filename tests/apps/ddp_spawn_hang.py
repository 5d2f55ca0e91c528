"""Two gloo ranks started by torch.multiprocessing.spawn, where rank 1 stalls outside any collective while
rank 0 goes on into DDP's backward, whose gradient all_reduce waits for rank 1
(tests/test_rank_hang_speed.py). spawn sets no RANK: the ranks are known by spawn's own index."""

import os
import socket
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel


def run(rank: int, world: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world)
    model = DistributedDataParallel(torch.nn.Linear(4, 1))
    if rank == 1:
        time.sleep(3600)  # the straggler: stuck in its own code, in no collective
    model(torch.randn(4, 4)).sum().backward()  # rank 0 waits here, in DDP's all_reduce of the gradients
    dist.destroy_process_group()


if __name__ == "__main__":
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    mp.spawn(run, args=(2,), nprocs=2)
