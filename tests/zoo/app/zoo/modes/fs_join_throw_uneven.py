"""torchrun, 2 gloo ranks: uneven shards under DDP's Join context with throw_on_early_termination=True.

The shards come from a contiguous split of 14 samples (rank 0: 8, rank 1: 6, batches of 2). Rank 1 runs out after
3 steps and joins; with throw_on_early_termination the context makes the ranks still training raise at their next
forward: rank 0 at its fourth.
"""

import torch
import torch.distributed as dist
from torch.distributed.algorithms.join import Join
from torch.nn.parallel import DistributedDataParallel as DDP


def shard(rank: int) -> list[torch.Tensor]:
    samples = [torch.full((8,), float(i)) for i in range(14)]
    mine = samples[:8] if rank == 0 else samples[8:]
    return [torch.stack(mine[i : i + 2]) for i in range(0, len(mine), 2)]


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = DDP(torch.nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    with Join([model], throw_on_early_termination=True):
        for i, x in enumerate(shard(rank)):
            loss = model(x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(f"[rank{rank}] step {i}", flush=True)
    dist.destroy_process_group()
