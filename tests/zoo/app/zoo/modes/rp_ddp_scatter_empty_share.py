"""torchrun, 2 gloo ranks: after DDP training, rank 0 scatters the validation files; rank 1's share is empty.

Each rank sizes its output list by its own share of the file list (files[rank::world_size]); with one validation
file rank 1's share is empty and scatter_object_list refuses an empty output list on rank 1, while rank 0 waits in
the scatter.
"""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

VAL_FILES = ["val-000.pt"]


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = DDP(torch.nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(2):
        opt.zero_grad()
        model(torch.randn(4, 8)).pow(2).mean().backward()
        opt.step()
    shares = [VAL_FILES[r::world_size] for r in range(world_size)]
    out = [None] * len(VAL_FILES[rank::world_size])
    dist.scatter_object_list(out, shares if rank == 0 else None, src=0)
    print(f"[rank{rank}] validating {out}", flush=True)
    dist.destroy_process_group()
