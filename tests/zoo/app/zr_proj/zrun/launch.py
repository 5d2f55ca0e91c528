"""Starting the ranks: mp.spawn(join=True) of a case's per-rank function, each rank logging its own failure."""

import faulthandler
import os
import socket
import traceback

import torch.distributed as dist
import torch.multiprocessing as mp

WORLD = 2


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rank_main(rank: int, fn, args: tuple) -> None:
    faulthandler.enable()
    dist.init_process_group("gloo", rank=rank, world_size=WORLD)
    try:
        fn(rank, *args)
    except BaseException:
        print(f"[rank{rank}] failed:", flush=True)
        traceback.print_exc()
        raise
    dist.destroy_process_group()


def spawn(fn, *args) -> None:
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ["MASTER_PORT"] = str(_free_port())
    mp.spawn(_rank_main, args=(fn, args), nprocs=WORLD, join=True)
