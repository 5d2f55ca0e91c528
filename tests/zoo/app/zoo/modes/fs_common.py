"""What the fs_ modes share: a gloo group of 2 ranks on 127.0.0.1 started by mp.spawn."""

import faulthandler
import os
import socket

import torch.distributed as dist
import torch.multiprocessing as mp


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rank(rank: int, world_size: int, port: int, fn, args: tuple) -> None:
    faulthandler.enable()
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    fn(rank, world_size, *args)
    dist.destroy_process_group()


def spawn(fn, *args, world_size: int = 2) -> None:
    mp.spawn(_rank, args=(world_size, free_port(), fn, args), nprocs=world_size)
