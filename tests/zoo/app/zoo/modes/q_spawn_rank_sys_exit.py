"""torch.multiprocessing.spawn, 2 gloo processes: after init_process_group, rank 1 finds no data shard of its own
and calls sys.exit(3); rank 0 waits in the first all_reduce."""

import os
import socket
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

SHARDS = ["shard-000.pt"]  # one shard listed for two ranks


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    if rank >= len(SHARDS):
        print(f"rank {rank}: no shard to read, exiting", file=sys.stderr)
        sys.exit(3)
    grad = torch.ones(8)
    dist.all_reduce(grad)
    dist.destroy_process_group()


def main() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    mp.spawn(run, args=(2,), nprocs=2)
