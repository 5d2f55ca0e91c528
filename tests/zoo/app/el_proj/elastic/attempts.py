"""Launching the ranks with torch.distributed.elastic (as torchrun does), with restarts."""

import os
import socket

from torch.distributed.launcher.api import LaunchConfig, elastic_launch


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def attempt() -> int:
    """Which attempt this rank is in (0 first; the agent counts its restarts)."""
    return int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))


def launch(entry, *args, max_restarts: int = 0):
    config = LaunchConfig(
        min_nodes=1,
        max_nodes=1,
        nproc_per_node=2,
        run_id="el_proj",
        rdzv_backend="c10d",
        rdzv_endpoint=f"127.0.0.1:{free_port()}",
        max_restarts=max_restarts,
        monitor_interval=0.1,
        start_method="spawn",
    )
    return elastic_launch(config, entry)(*args)
