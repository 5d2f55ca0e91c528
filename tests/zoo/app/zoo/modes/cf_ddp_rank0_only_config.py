"""torchrun, 2 gloo ranks: only rank 0 reads the experiment's YAML file ("to spare the shared filesystem"); the
other rank keeps the defaults, a rank-dependent configuration. Before training, the program's own check
broadcasts rank 0's settings and each other rank compares its own: rank 1 raises; rank 0 goes on into DDP's
constructor and waits for a peer that has gone."""

import os
import tempfile

import torch
import torch.distributed as dist
import yaml
from torch.nn.parallel import DistributedDataParallel as DDP

DEFAULTS = {"lr": 0.1, "hidden": 32, "batch_size": 16}
EXPERIMENT = "lr: 0.05\nbatch_size: 32\n"


def settings(rank: int) -> dict:
    cfg = dict(DEFAULTS)
    if rank == 0:
        path = os.path.join(tempfile.mkdtemp(), "experiment.yaml")
        with open(path, "w") as f:
            f.write(EXPERIMENT)
        with open(path) as f:
            cfg.update(yaml.safe_load(f))
    return cfg


def check_same(cfg: dict, rank: int) -> None:
    theirs = [cfg]
    dist.broadcast_object_list(theirs, src=0)
    if theirs[0] != cfg:
        raise ValueError(f"rank {rank}'s config differs from rank 0's: {cfg} != {theirs[0]}")


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    cfg = settings(rank)
    print(f"rank {rank}: {cfg}", flush=True)
    check_same(cfg, rank)
    model = DDP(torch.nn.Linear(8, cfg["hidden"]))
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"])
    x = torch.randn(cfg["batch_size"], 8)
    for step in range(3):
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
