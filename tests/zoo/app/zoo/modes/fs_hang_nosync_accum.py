"""mp.spawn, 2 gloo ranks: gradient accumulation under no_sync with a per-rank accumulation count.

The accumulation count is derived from each rank's own micro-batch size (a global batch of 16 over local batches of
8 on rank 0, 4 on rank 1), so rank 0 synchronises every 2nd micro-step and rank 1 every 4th. After 8 micro-steps
rank 1 has made 2 synchronising backwards and waits in the end-of-epoch barrier; rank 0 waits in its third
synchronising backward's all_reduce. Nothing fails.
"""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from zoo.modes.fs_common import spawn

GLOBAL_BATCH = 16


def train(rank: int, world_size: int) -> None:
    torch.manual_seed(0)
    local_batch = 8 if rank == 0 else 4
    accum = GLOBAL_BATCH // local_batch
    model = DDP(torch.nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for micro in range(1, 9):
        x = torch.randn(local_batch, 8)
        if micro % accum:
            with model.no_sync():
                model(x).pow(2).mean().backward()
        else:
            model(x).pow(2).mean().backward()
            opt.step()
            opt.zero_grad()
            print(f"[rank{rank}] synced at micro-step {micro}", flush=True)
    dist.barrier()
    print(f"[rank{rank}] epoch done", flush=True)


def main() -> None:
    spawn(train)
