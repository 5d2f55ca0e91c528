"""mp.Process ranks with init_process_group (gloo): rank 0 broadcasts its run configuration with
`dist.broadcast_object_list`; the config holds the logging handler it built, whose lock cannot be pickled."""

import logging
import multiprocessing as mp
import os
from datetime import timedelta

import torch.distributed as dist


def make_config() -> dict:
    handler = logging.StreamHandler()
    return {"lr": 0.1, "epochs": 2, "log_handler": handler}


def rank_main(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size, timeout=timedelta(seconds=10))
    objs = [make_config()] if rank == 0 else [None]
    dist.broadcast_object_list(objs, src=0)
    print(f"rank {rank}: config {objs[0]}", flush=True)
    dist.destroy_process_group()


def main() -> None:
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(29700 + os.getpid() % 1000))
    procs = [mp.Process(target=rank_main, args=(r, 2)) for r in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    codes = [p.exitcode for p in procs]
    print(f"rank exit codes {codes}", flush=True)
    if any(codes):
        raise SystemExit(f"a rank failed: exit codes {codes}")
