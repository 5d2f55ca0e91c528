"""torch.multiprocessing.spawn, 2 processes: rank 0 reads its run manifest before init_process_group and
raises (the file is missing); rank 1 waits in init_process_group for rank 0's store."""

import json
import os
import socket

import torch.distributed as dist
import torch.multiprocessing as mp


def run(rank: int, world_size: int) -> None:
    if rank == 0:
        with open(os.path.join(os.getcwd(), "run_manifest.json")) as f:
            manifest = json.load(f)
        print(manifest)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    dist.barrier()
    dist.destroy_process_group()


def main() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    mp.spawn(run, args=(2,), nprocs=2)
