"""Rank 1 aborts on a stale lock file a previous job left in the data cache; the elastic agent (no restarts) stops.

The check calls os.abort(), as a C library's assert would, before the rank joins the process group; rank 0 waits
in init_process_group until the agent stops it.
"""

import os
import tempfile

import torch
import torch.distributed as dist
from torch.distributed.launcher.api import LaunchConfig, elastic_launch

from zoo.modes.el_common import free_port


def check_cache(cache: str) -> None:
    lock = os.path.join(cache, "index.lock")
    if os.path.exists(lock):
        os.remove(lock)
        print("[rank1] stale cache lock found: aborting", flush=True)
        os.abort()


def rank_entry(cache: str) -> None:
    rank = int(os.environ["RANK"])
    attempt = os.environ["TORCHELASTIC_RESTART_COUNT"]
    if rank == 1:
        check_cache(cache)
    dist.init_process_group("gloo")
    model = torch.nn.Linear(4, 1)
    for _ in range(3):
        model(torch.randn(2, 4)).sum().backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
    print(f"[rank{rank}] attempt {attempt}: trained 3 steps", flush=True)
    dist.destroy_process_group()


def main() -> None:
    cache = tempfile.mkdtemp(prefix="el_cache_")
    open(os.path.join(cache, "index.lock"), "w").close()
    config = LaunchConfig(
        min_nodes=1,
        max_nodes=1,
        nproc_per_node=2,
        run_id="el_abort",
        rdzv_backend="c10d",
        rdzv_endpoint=f"127.0.0.1:{free_port()}",
        max_restarts=0,
        monitor_interval=0.1,
        start_method="spawn",
    )
    elastic_launch(config, rank_entry)(cache)
    print("training done")
