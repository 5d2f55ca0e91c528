"""mp.spawn, 2 gloo ranks: a DDP training loop moved to FSDP2 (fully_shard) keeps DDP's `no_sync()` for accumulation.

fully_shard turns the model into an FSDP module whose accumulation switch is `set_requires_gradient_sync(False)`;
it has no `no_sync`, and the first accumulation step asks for it, on every rank.
"""

import torch
from torch.distributed.fsdp import fully_shard

from zoo.modes.fs_common import spawn

ACCUMULATE = 4


def build() -> torch.nn.Module:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 1))
    for layer in model:
        if isinstance(layer, torch.nn.Linear):
            fully_shard(layer)
    return fully_shard(model)


def train(rank: int, world_size: int) -> None:
    model = build()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    print(f"[rank{rank}] sharded {sum(p.numel() for p in model.parameters())} parameters", flush=True)
    for micro in range(1, 9):
        x = torch.randn(8, 16)
        if micro % ACCUMULATE:
            with model.no_sync():
                model(x).pow(2).mean().backward()
        else:
            model(x).pow(2).mean().backward()
            opt.step()
            opt.zero_grad()


def main() -> None:
    spawn(train)
