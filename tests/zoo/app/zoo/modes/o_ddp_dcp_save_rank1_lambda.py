"""torchrun, 2 gloo ranks: each rank saves its training state with `torch.distributed.checkpoint.save`; rank 1's
warm-up scheduler state carries its lr rule, a lambda, since rank 1 alone builds the scheduler from a string."""

from datetime import timedelta

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.nn.parallel import DistributedDataParallel as DDP

CKPT = "/tmp/o_ddp_dcp_save_rank1_lambda"


def sched_state(rank: int, step: int) -> dict:
    state = {"step": step, "base_lr": 0.1}
    if rank == 1:
        state["lr_rule"] = lambda s: min(1.0, (s + 1) / 10)
    return state


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    model = DDP(torch.nn.Linear(16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _step in range(3):
        model(torch.randn(8, 16)).pow(2).mean().backward()
        opt.step()
        opt.zero_grad()
    state = {"model": model.module.state_dict(), "sched": sched_state(rank, 3)}
    if rank == 0:
        print("saving step 3", flush=True)
    dcp.save(state, checkpoint_id=CKPT)
    dist.destroy_process_group()
