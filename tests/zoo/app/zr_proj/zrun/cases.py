"""zr_proj's cases: each starts 2 gloo ranks (zrun.launch.spawn) that train a small model."""

import time

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

from zrun import watchdog
from zrun.index import share_index
from zrun.launch import spawn


def _shard(rank: int, batches: int) -> list:
    g = torch.Generator().manual_seed(rank)
    return [torch.randn(8, 4, generator=g) for _ in range(batches)]


def _index_rank(rank: int) -> None:
    index = share_index(rank)
    print(f"[rank{rank}] index of {len(index)} samples", flush=True)


def bcast_lmdb_index() -> None:
    spawn(_index_rank)


def _slow_item(rank: int, step: int) -> float:
    # rank 1's shard holds one long sample at step 3
    return 3.0 if (rank == 1 and step == 3) else 0.05


def _watched_rank(rank: int) -> None:
    if rank == 0:
        watchdog.install_handler()  # set up with the main rank's logging
    model = DDP(nn.Linear(4, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, x in enumerate(_shard(rank, 6)):
        watchdog.arm(2)
        time.sleep(_slow_item(rank, step))
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        watchdog.disarm()
        print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)


def alarm_rank1_step() -> None:
    spawn(_watched_rank)


def _joined_rank(rank: int) -> None:
    model = DDP(nn.Linear(4, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    shard = _shard(rank, 6 if rank == 0 else 4)  # the shards split by file, not evenly
    with model.join():
        for step, x in enumerate(shard):
            loss = model(x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            logged = loss.detach().clone()
            dist.all_reduce(logged)
            print(f"[rank{rank}] step {step} mean loss {logged.item() / 2:.4f}", flush=True)


def join_log_allreduce() -> None:
    spawn(_joined_rank)


CASES = {
    "bcast_lmdb_index": bcast_lmdb_index,
    "alarm_rank1_step": alarm_rank1_step,
    "join_log_allreduce": join_log_allreduce,
}
