"""torchrun, 2 gloo ranks: each rank guards its metric all_reduce with a hang watchdog,
faulthandler.dump_traceback_later(3, exit=True); every 2 steps rank 0 alone runs a 5-second evaluation before
that all_reduce. Rank 1 waits in the all_reduce past its watchdog: faulthandler dumps its stacks and ends it
with exit status 1."""

import faulthandler
import sys
import time
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def evaluate(model) -> float:
    time.sleep(5)
    return float(model.module.weight.norm())


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))
    model = DDP(torch.nn.Linear(16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for step in range(6):
        loss = model(torch.randn(8, 16, generator=g)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if rank == 0 and step % 2 == 1:
            print(f"step {step}: eval {evaluate(model):.3f}", flush=True)
        metric = loss.detach().clone()
        faulthandler.dump_traceback_later(3, exit=True, file=sys.stderr)
        dist.all_reduce(metric)
        faulthandler.cancel_dump_traceback_later()
        if rank == 0:
            print(f"step {step} mean loss {metric.item() / world_size:.4f}", flush=True)
    dist.destroy_process_group()
