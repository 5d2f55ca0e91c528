"""torchrun, 2 gloo ranks: DDP(static_graph=True) with gradient accumulation under no_sync.

The loop accumulates 2 micro-batches per optimizer step, the first inside `model.no_sync()`, as DDP's docs show for
accumulation; static_graph=True was switched on for speed. The very first backward (inside no_sync) trips an
internal assertion in DDP's reducer that asks to be reported to PyTorch (pytorch/pytorch#143580; the open fix
pytorch/pytorch#187732 calls it a regression of static_graph with no_sync).
"""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

ACCUMULATE = 2


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1)), static_graph=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for micro in range(1, 7):
        x = torch.randn(4, 8)
        if micro % ACCUMULATE:
            with model.no_sync():
                model(x).pow(2).mean().backward()
        else:
            model(x).pow(2).mean().backward()
            opt.step()
            opt.zero_grad()
            print(f"[rank{rank}] step {micro // ACCUMULATE}", flush=True)
    dist.destroy_process_group()
