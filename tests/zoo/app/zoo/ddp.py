"""2-rank gloo DDP on CPU, failing the ways DDP users report; rank 1 is the one that goes wrong.

Run by torchrun (`torchrun --nproc_per_node=2 ddp_main.py mode=raise`) or by torch.multiprocessing.spawn
(zoo/modes/spawn_*.py). Every mode all-reduces one good step first.
"""

import ctypes
import math
import os
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader

from zoo.data import Samples


class TwoHeads(torch.nn.Module):
    """A model with an auxiliary head that only some steps use (DDP's unused-parameter error)."""

    def __init__(self):
        super().__init__()
        self.body = torch.nn.Linear(4, 4)
        self.aux = torch.nn.Linear(4, 1)
        self.head = torch.nn.Linear(4, 1)

    def forward(self, x, skip_aux: bool):
        h = self.body(x)
        return self.head(h) if skip_aux else self.head(h) + self.aux(h)


def guard_loss(loss, step: int, rank: int) -> None:
    if rank == 1 and step == 1:
        loss = loss * math.nan  # a bad batch on rank 1
    if not math.isfinite(loss.item()):
        raise FloatingPointError(f"loss is nan at step {step} on rank {rank}")


def decode_on_rank1(i: int) -> None:
    if i >= 4 and os.environ.get("ZOO_RANK") == "1":
        ctypes.string_at(0)  # rank 1's loader worker dies by SIGSEGV


def read_shard_header(rank: int) -> None:
    if rank == 1:
        ctypes.string_at(0)


def class_counts(rank: int):
    counts = torch.ones(4 if rank == 0 else 3)  # rank 1 saw one class fewer: its buffer is short
    dist.broadcast(counts, src=0)  # rank 0 shares its class counts
    return counts


def wait_for_shard(rank: int) -> None:
    while rank == 1 and not os.path.exists("shards/rank1.done"):
        time.sleep(0.2)  # rank 1 waits for a file nobody writes; rank 0 is already in all_reduce


def batches_of(rank: int, mode: str) -> int:
    # uneven: rank 1's shard holds fewer batches (no DistributedSampler, drop_last=False)
    return 2 if mode == "uneven" and rank == 1 else 4


def train(rank: int, world_size: int, mode: str) -> None:
    torch.set_num_threads(1)
    os.environ["ZOO_RANK"] = str(rank)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    model = DistributedDataParallel(TwoHeads(), process_group=short_group() if mode == "collective_timeout" else None)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    fault = decode_on_rank1 if mode == "worker_segv" else None
    loader = DataLoader(Samples(n=16, fault=fault), batch_size=2, num_workers=1 if fault else 0)
    for step, (x, y) in enumerate(loader):
        if step == batches_of(rank, mode):
            break
        if step == 1 and mode == "segv":
            read_shard_header(rank)
        if step == 1 and mode == "mismatch":
            class_counts(rank)
        if step == 1 and mode in ("straggler", "collective_timeout"):
            wait_for_shard(rank)
        loss = torch.nn.functional.mse_loss(model(x, mode == "unused" and step >= 1).squeeze(1), y)
        if mode == "raise":
            guard_loss(loss, step, rank)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    dist.destroy_process_group()


def spawned(rank: int, world_size: int, mode: str) -> None:
    from zoo import imports_settled  # here, below train: the lines above are the zoo's truth

    imports_settled()  # a spawned rank imported it all again
    train(rank, world_size, mode)


def spawn(mode: str) -> None:
    import socket

    import torch.multiprocessing as mp

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        os.environ["MASTER_PORT"] = str(s.getsockname()[1])
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    mp.spawn(spawned, args=(2, mode), nprocs=2)


def short_group():
    """A group whose collectives time out after 4 s, as people set one to see a hang fail rather than wait 30
    minutes; the default group keeps its 30 for the ranks' start-up on a busy machine. (Below train, and its
    import here: the lines above are the zoo's truth.)"""
    import datetime

    return dist.new_group(timeout=datetime.timedelta(seconds=4))
