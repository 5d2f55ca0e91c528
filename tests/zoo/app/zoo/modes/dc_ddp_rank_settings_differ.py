"""torchrun, 2 gloo ranks: each rank builds its settings from its own override file; rank 1's file is stale
(grad_accum 3), and the settings' __post_init__ refuses a global batch the per-rank batches cannot make. Rank 0
goes on to the first gradient all_reduce."""

import os
import tempfile
from dataclasses import dataclass

import torch
import torch.distributed as dist
from torch import nn


@dataclass
class DistSettings:
    global_batch: int
    per_rank_batch: int
    grad_accum: int
    world_size: int

    def __post_init__(self) -> None:
        made = self.per_rank_batch * self.grad_accum * self.world_size
        if made != self.global_batch:
            raise ValueError(
                f"global_batch {self.global_batch} != per_rank_batch {self.per_rank_batch} x grad_accum "
                f"{self.grad_accum} x world_size {self.world_size} = {made}"
            )


def read_overrides(rank: int) -> dict:
    path = os.path.join(tempfile.mkdtemp(prefix=f"dc-rank{rank}-"), "overrides.txt")
    with open(path, "w") as f:
        f.write("grad_accum=2\n" if rank == 0 else "grad_accum=3\n")
    with open(path) as f:
        return {k: int(v) for k, v in (line.strip().split("=") for line in f)}


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = nn.Linear(8, 1)
    over = read_overrides(rank)
    cfg = DistSettings(global_batch=32, per_rank_batch=8, grad_accum=over["grad_accum"], world_size=world_size)
    print(f"rank {rank} settings {cfg}", flush=True)
    loss = model(torch.randn(cfg.per_rank_batch, 8)).pow(2).mean()
    loss.backward()
    for p in model.parameters():
        dist.all_reduce(p.grad)
    dist.destroy_process_group()
