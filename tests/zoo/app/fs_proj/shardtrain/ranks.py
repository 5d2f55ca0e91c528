"""What each rank runs: the MLP under DDP (or FSDP2's fully_shard), SGD, a DistributedSampler loader."""

import torch
from torch.distributed.fsdp import fully_shard
from torch.nn.parallel import DistributedDataParallel as DDP

from shardtrain import ckpt, hooks
from shardtrain.data import loader
from shardtrain.model import mlp

WIDTH = 16


def step(model: torch.nn.Module, opt: torch.optim.Optimizer, x: torch.Tensor) -> float:
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def ddp_rank(rank: int, world_size: int, cfg: dict) -> None:
    model = mlp(WIDTH)
    if cfg.get("resume"):
        ckpt.restore(model, cfg["resume"], rank)
        print(f"[rank{rank}] restored from {cfg['resume']}", flush=True)
    ddp = DDP(model)
    hooks.register(ddp, cfg)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
    dl = loader(32, WIDTH, cfg.get("isa", ["generic"] * world_size)[rank])
    for epoch in range(2):
        dl.sampler.set_epoch(epoch)
        for x in dl:
            loss = step(ddp, opt, x)
        print(f"[rank{rank}] epoch {epoch} loss {loss:.4f}", flush=True)


def fsdp_rank(rank: int, world_size: int, cfg: dict) -> None:
    model = mlp(WIDTH)
    for layer in model:
        if isinstance(layer, torch.nn.Linear):
            fully_shard(layer)
    fully_shard(model)
    ckpt.load_full(model, cfg["pretrained"])
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(3):
        step(model, opt, torch.randn(4, WIDTH))
    print(f"[rank{rank}] fine-tuned", flush=True)
