"""torchrun, 2 gloo ranks: DDP with gradient accumulation, the first micro-batch of each step under
`model.no_sync()`; rank 1's shard has a batch from an older preprocessing without its `mask` key, and rank 1
fails inside the no_sync block while rank 0 goes on to the synchronising backward."""

from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def shard(rank: int) -> list[dict]:
    g = torch.Generator().manual_seed(rank)
    batches = [{"x": torch.randn(8, 16, generator=g), "mask": torch.ones(8, 1)} for _ in range(6)]
    if rank == 1:
        del batches[2]["mask"]
    return batches


def micro_loss(model: DDP, batch: dict) -> torch.Tensor:
    return (model(batch["x"]) * batch["mask"]).pow(2).mean()


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    model = DDP(torch.nn.Linear(16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    batches = shard(rank)
    for step in range(0, len(batches), 2):
        with model.no_sync():
            micro_loss(model, batches[step]).backward()
        micro_loss(model, batches[step + 1]).backward()
        opt.step()
        opt.zero_grad()
        if rank == 0:
            print(f"step {step // 2} done", flush=True)
    dist.destroy_process_group()
