"""torchrun, 2 gloo ranks: only rank 0 starts the W&B run; after the first epoch every rank saves its shard of
the evaluation under a folder named after the run (`wandb.run.name`), which on rank 1 is no run at all."""

import os
import tempfile
from datetime import timedelta

import torch
import torch.distributed as dist
import wandb
from torch.nn.parallel import DistributedDataParallel as DDP


def save_eval_shard(rank: int, preds: torch.Tensor) -> str:
    folder = os.path.join(tempfile.gettempdir(), "wb_eval", wandb.run.name)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"preds_rank{rank}.pt")
    torch.save(preds, path)
    return path


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    if rank == 0:
        os.environ.setdefault("WANDB_MODE", "offline")
        os.environ.setdefault("WANDB_SILENT", "true")
        wandb.init(project="wb-ddp", dir=tempfile.mkdtemp(prefix="wb_"), name="ddp-run")
    torch.manual_seed(0)
    model = DDP(torch.nn.Linear(8, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for epoch in range(3):
        for _step in range(3):
            x = torch.randn(16, 8, generator=g)
            loss = torch.nn.functional.cross_entropy(model(x), (x[:, 0] > 0).long())
            opt.zero_grad()
            loss.backward()
            opt.step()
        if rank == 0:
            wandb.log({"loss": loss.item(), "epoch": epoch})
            print(f"epoch {epoch} loss {loss.item():.4f}", flush=True)
        with torch.no_grad():
            preds = model(torch.randn(16, 8, generator=g)).argmax(1)
        save_eval_shard(rank, preds)
    if rank == 0:
        wandb.finish()
    dist.destroy_process_group()
