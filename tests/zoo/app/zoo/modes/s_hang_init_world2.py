"""A training script started as one plain process with the environment of a 2-process job (WORLD_SIZE=2,
RANK=0, as a config copied from a launcher's): init_process_group waits for rank 1, which nobody starts.
Nothing printed."""

import os
import socket

import torch
import torch.distributed as dist


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(free_port()), WORLD_SIZE="2", RANK="0")
    dist.init_process_group("gloo")
    grad = torch.ones(4)
    dist.all_reduce(grad)
    print(grad)
