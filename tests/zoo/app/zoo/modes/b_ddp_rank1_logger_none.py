"""torchrun, 2 gloo ranks: the metrics writer is made on rank 0 only (the usual rank-zero logging), but the loop
logs every step's loss on every rank, so rank 1 calls add_scalar on None after its first step; rank 0 goes on
into the next step's gradient all-reduce and loses its peer."""

import json
import os
import tempfile
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class MetricsWriter:
    def __init__(self, path: str):
        self.path = path

    def add_scalar(self, tag: str, value: float, step: int) -> None:
        with open(self.path, "a") as f:
            f.write(json.dumps({"tag": tag, "value": value, "step": step}) + "\n")


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    torch.manual_seed(0)
    model = DDP(torch.nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    run_id = os.environ.get("TORCHELASTIC_RUN_ID", "local")
    writer = MetricsWriter(os.path.join(tempfile.gettempdir(), f"b_metrics_{run_id}.jsonl")) if rank == 0 else None
    g = torch.Generator().manual_seed(rank)
    for step in range(5):
        x, y = torch.randn(16, 8, generator=g), torch.randn(16, 1, generator=g)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        writer.add_scalar("train/loss", loss.item(), step)
    print(f"rank {rank}: done")
    dist.destroy_process_group()
