"""torchrun, 2 gloo ranks: each rank gathers its run summary to all with all_gather_object; rank 1 writes its
own per-rank log and its summary keeps the open log file, which pickle refuses; rank 0 waits in the collective."""

import os
import tempfile

import torch
import torch.distributed as dist
from torch import nn


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    model = nn.Linear(6, 2)
    loss = model(torch.randn(8, 6)).pow(2).mean()
    loss.backward()
    summary = {"rank": rank, "loss": loss.item()}
    if rank == 1:
        log = open(os.path.join(tempfile.gettempdir(), f"pk_rank{rank}.log"), "wb")
        log.write(b"loss\n")
        summary["log"] = log
    gathered = [None] * world_size
    dist.all_gather_object(gathered, summary)
    print("gathered", [g["loss"] for g in gathered])
    dist.destroy_process_group()
