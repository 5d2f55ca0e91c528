"""Rank 0 spins in `regex` (catastrophic backtracking) while rank 1 waits in all_reduce for ever.

Two gloo ranks (torch.multiprocessing.spawn) clean their text shards before each step. The cleaner's pattern
`(?:\\w|\\w\\w)+$` backtracks exponentially on a long run of word characters followed by a punctuation mark;
rank 0's shard holds one such line (a URL fragment), so rank 0 never leaves `regex.search`; rank 1 finished its
cleaning and waits in the step's all_reduce (gloo's default timeout: 30 minutes).
"""

import os

import regex
import torch
import torch.distributed as dist
import torch.multiprocessing as tmp

from zoo.modes.el_common import free_port

CLEAN = regex.compile(r"(?:\w|\w\w)+$")


def clean(line: str) -> bool:
    return CLEAN.search(line) is not None


def rank_main(rank: int, world_size: int, port: int) -> None:
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    shard = ["a cat sat", "on the mat"] * 4
    if rank == 0:
        shard.insert(3, "session" + "a" * 60 + "!")
    for step, line in enumerate(shard):
        keep = torch.tensor([float(clean(line))])
        dist.all_reduce(keep)
        print(f"[rank{rank}] step {step} kept {keep.item():.0f}", flush=True)
    dist.destroy_process_group()


def main() -> None:
    tmp.spawn(rank_main, args=(2, free_port()), nprocs=2)
