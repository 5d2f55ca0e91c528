"""torchrun, 2 gloo ranks: each rank trains on its own store's hourly series, cut into 24-hour windows with
`Tensor.unfold`; rank 1's store opened ten hours ago. Rank 0 goes on into DDP's backward and its all-reduce."""

import numpy as np
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

WINDOW = 24
HOURS = {0: 200, 1: 10}


def windows(rank: int) -> torch.Tensor:
    series = torch.from_numpy(np.random.default_rng(rank).normal(50, 5, HOURS[rank]).astype(np.float32))
    return series.unfold(0, WINDOW, 1)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    model = DDP(torch.nn.Linear(WINDOW - 1, 1))
    opt = torch.optim.SGD(model.parameters(), lr=1e-4)
    x = windows(rank)
    print(f"rank {rank}: {x.shape[0]} windows", flush=True)
    for _step in range(3):
        loss = torch.nn.functional.mse_loss(model(x[:, :-1]).squeeze(1), x[:, -1])
        opt.zero_grad()
        loss.backward()
        opt.step()
    dist.destroy_process_group()
