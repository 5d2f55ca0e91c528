"""torchrun, 2 gloo ranks: each rank appends its per-step metrics to its own JSON-lines file, written with
`allow_nan=False` so that the dashboard's strict JSON parser never meets a NaN; rank 1's shard holds a sample
with a NaN feature, its loss at step 2 is NaN, and json refuses the record on rank 1 while rank 0 goes on to the
next step's gradient all-reduce."""

import json
import tempfile
from datetime import timedelta
from pathlib import Path

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def shard(rank: int) -> list[tuple[torch.Tensor, torch.Tensor]]:
    g = torch.Generator().manual_seed(rank)
    batches = [(torch.randn(8, 16, generator=g), torch.randn(8, 1, generator=g)) for _ in range(5)]
    if rank == 1:
        batches[2][0][3, 5] = float("nan")  # a sensor reading lost in export
    return batches


def write_record(path: Path, record: dict) -> None:
    with open(path, "a") as f:
        f.write(json.dumps(record, allow_nan=False) + "\n")


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    model = DDP(torch.nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    path = Path(tempfile.gettempdir()) / f"lg_ddp_metrics_rank{rank}.jsonl"
    for step, (x, y) in enumerate(shard(rank)):
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        write_record(path, {"rank": rank, "step": step, "loss": loss.item()})
        if rank == 0:
            print(f"step {step} done", flush=True)
    dist.destroy_process_group()
