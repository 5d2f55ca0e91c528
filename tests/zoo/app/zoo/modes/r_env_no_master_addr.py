"""init_process_group(env://) started with plain `python`, not torchrun: no MASTER_ADDR in the environment."""

import os

import torch.distributed as dist


def setup_distributed() -> None:
    rank = int(os.environ.get("RANK", 0))
    world = int(os.environ.get("WORLD_SIZE", 1))
    dist.init_process_group("gloo", init_method="env://", rank=rank, world_size=world)


def main() -> None:
    for name in ("MASTER_ADDR", "MASTER_PORT"):  # a plain shell's environment, whoever started this one
        os.environ.pop(name, None)
    setup_distributed()
