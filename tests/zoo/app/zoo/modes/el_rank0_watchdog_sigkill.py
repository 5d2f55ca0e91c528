"""A rank's own memory watchdog kills it: the budget comes from the launcher config in MB, read as GB.

Each rank starts a watchdog thread that SIGKILLs its process when its RSS passes `budget`; the config says
`mem_budget: 2` meaning GB, the watchdog takes it as MB. Rank 0 (which checks) dies by SIGKILL at its first
check; rank 1 (no watchdog: it only trains) waits in all_reduce until the agent stops it. No restarts.
"""

import os
import resource
import signal
import threading

import torch
import torch.distributed as dist
from torch.distributed.launcher.api import LaunchConfig, elastic_launch

from zoo.modes.el_common import free_port

CONFIG = {"mem_budget": 2}


def watchdog(budget_mb: float) -> None:
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if rss_mb > budget_mb:
        print(f"[rank0] watchdog: rss {rss_mb:.0f} MB over budget {budget_mb} MB", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)


def rank_entry() -> None:
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    if rank == 0:
        t = threading.Thread(target=watchdog, args=(CONFIG["mem_budget"],), name="watchdog")
        t.start()
        t.join()
    x = torch.ones(4)
    dist.all_reduce(x)
    dist.destroy_process_group()


def main() -> None:
    config = LaunchConfig(
        min_nodes=1,
        max_nodes=1,
        nproc_per_node=2,
        run_id="el_watchdog",
        rdzv_backend="c10d",
        rdzv_endpoint=f"127.0.0.1:{free_port()}",
        max_restarts=0,
        monitor_interval=0.1,
        start_method="spawn",
    )
    elastic_launch(config, rank_entry)()
