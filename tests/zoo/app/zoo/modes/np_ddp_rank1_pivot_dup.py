"""torchrun, 2 gloo ranks: each rank builds its shard's user x item rating matrix with pandas `pivot`; rank 1's
interaction log has one (user, item) pair twice, pandas refuses to pivot it, and rank 0 waits in the all_reduce
of the first step's gradients."""

from datetime import timedelta

import numpy as np
import pandas as pd
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def interactions(rank: int) -> pd.DataFrame:
    rng = np.random.default_rng(rank)
    pairs = [(u, i) for u in range(6) for i in range(5)]
    log = pd.DataFrame(pairs, columns=["user", "item"])
    log["rating"] = rng.integers(1, 6, size=len(log)).astype(float)
    if rank == 1:
        log = pd.concat([log, log.iloc[[7]]], ignore_index=True)  # a re-sent event
    return log


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    matrix = interactions(rank).pivot(index="user", columns="item", values="rating")
    x = torch.from_numpy(matrix.to_numpy(dtype=np.float32, copy=True))
    model = DDP(torch.nn.Linear(5, 5))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(3):
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if rank == 0:
            print(f"step {step} loss {loss.item():.3f}", flush=True)
    dist.destroy_process_group()
