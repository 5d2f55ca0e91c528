"""Starting the ranks: mp.spawn, a gloo group on 127.0.0.1, faulthandler on in every rank."""

import faulthandler
import os
import socket

import torch.distributed as dist
import torch.multiprocessing as mp


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rank_main(rank: int, world_size: int, port: int, entry, cfg: dict) -> None:
    faulthandler.enable()
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    entry(rank, world_size, cfg)
    dist.destroy_process_group()


def spawn(entry, cfg: dict, world_size: int = 2) -> None:
    mp.spawn(_rank_main, args=(world_size, free_port(), entry, cfg), nprocs=world_size)
