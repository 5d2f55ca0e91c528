"""Rank 0 returns from its training function, but a non-daemon uploader thread it started keeps its process alive.

The uploader waits for a `stop` event that only the shutdown hook sets, and the hook is never registered; rank 1
exits 0, rank 0's interpreter waits for the thread at exit, and the elastic agent waits for rank 0 for ever.
"""

import os
import threading

import torch
import torch.distributed as dist
from torch.distributed.launcher.api import LaunchConfig, elastic_launch

from zoo.modes.el_common import free_port


def uploader(stop: threading.Event) -> None:
    while not stop.wait(1.0):
        pass


def rank_entry() -> None:
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    if rank == 0:
        threading.Thread(target=uploader, args=(threading.Event(),), name="uploader").start()
    t = torch.ones(2)
    dist.all_reduce(t)
    dist.destroy_process_group()
    print(f"[rank{rank}] attempt {os.environ['TORCHELASTIC_RESTART_COUNT']}: done", flush=True)


def main() -> None:
    config = LaunchConfig(
        min_nodes=1,
        max_nodes=1,
        nproc_per_node=2,
        run_id="el_exit",
        rdzv_backend="c10d",
        rdzv_endpoint=f"127.0.0.1:{free_port()}",
        max_restarts=1,
        monitor_interval=0.1,
        start_method="spawn",
    )
    elastic_launch(config, rank_entry)()
    print("all ranks done")
