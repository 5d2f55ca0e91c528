"""Rank 1 faults in native code on its first step; the elastic agent (no restarts) ends the group.

The feature extractor reads a C string through ctypes from the address a header field holds; rank 1's shard header
was written with a zero offset, so it reads address 0.
"""

import ctypes
import os

import torch
import torch.distributed as dist
from torch.distributed.launcher.api import LaunchConfig, elastic_launch

from zoo.modes.el_common import free_port


def read_label(header: dict) -> bytes:
    return ctypes.string_at(header["label_addr"])


def rank_entry() -> None:
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    attempt = os.environ["TORCHELASTIC_RESTART_COUNT"]
    print(f"[rank{rank}] attempt {attempt}", flush=True)
    label = ctypes.create_string_buffer(b"cat")
    header = {"label_addr": ctypes.addressof(label) if rank == 0 else 0}
    read_label(header)
    t = torch.ones(4)
    dist.all_reduce(t)
    dist.destroy_process_group()


def main() -> None:
    config = LaunchConfig(
        min_nodes=1,
        max_nodes=1,
        nproc_per_node=2,
        run_id="el_segv",
        rdzv_backend="c10d",
        rdzv_endpoint=f"127.0.0.1:{free_port()}",
        max_restarts=0,
        monitor_interval=0.1,
        start_method="spawn",
    )
    elastic_launch(config, rank_entry)()
