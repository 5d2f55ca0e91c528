"""Process-group set-up and the collectives the trainer uses."""

import os
from datetime import timedelta

import torch.distributed as dist


def setup(timeout_s: int = 30) -> tuple[int, int]:
    dist.init_process_group("gloo", timeout=timedelta(seconds=timeout_s))
    return dist.get_rank(), dist.get_world_size()


def local_rank() -> int:
    return int(os.environ.get("LOCAL_RANK", 0))


def is_main() -> bool:
    return dist.get_rank() == 0


def gather_metrics(metrics: dict) -> list[dict]:
    out: list = [None] * dist.get_world_size()
    dist.all_gather_object(out, metrics)
    return out
