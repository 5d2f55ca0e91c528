"""torchrun, 2 gloo ranks: DDP training whose loss is a compiled (fullgraph=True) function; rank 1 runs with
the debug flag on (its own logging of the per-class losses as a Python list, `tolist()`), which dynamo refuses
under fullgraph. Rank 1 fails in its first step; rank 0 waits in the backward's all-reduce."""

from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


def loss_fn(logits: torch.Tensor, y: torch.Tensor, debug: bool) -> torch.Tensor:
    per = F.cross_entropy(logits, y, reduction="none")
    if debug:
        print("per-example losses", [round(v, 3) for v in per.tolist()])
    return per.mean()


loss_c = torch.compile(loss_fn, backend="eager", fullgraph=True)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    model = DDP(torch.nn.Linear(16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for step in range(3):
        x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
        loss = loss_c(model(x), y, rank == 1)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if rank == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
