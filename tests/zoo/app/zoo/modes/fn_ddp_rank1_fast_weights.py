"""torchrun, 2 gloo ranks: MAML-style evaluation with fast weights through torch.func.functional_call(strict=True);
rank 1 takes its fast weights from a checkpoint saved from the DDP-wrapped model (keys `module.0.weight`), so
its strict functional_call refuses them; rank 0 goes on to the all_reduce of the scores."""

from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.func import functional_call
from torch.nn.parallel import DistributedDataParallel as DDP


def fast_weights(rank: int, ddp: DDP) -> dict[str, torch.Tensor]:
    if rank == 1:
        return {k: v.detach().clone() for k, v in ddp.state_dict().items()}
    return {k: v.detach().clone() for k, v in ddp.module.state_dict().items()}


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    ddp = DDP(net)
    x = torch.randn(16, 4)
    loss = ddp(x).pow(2).mean()
    loss.backward()
    weights = fast_weights(rank, ddp)
    score = functional_call(net, weights, (x,), strict=True).mean().detach()
    dist.all_reduce(score)
    if rank == 0:
        print(f"mean score {score.item() / world_size:.3f}", flush=True)
    dist.destroy_process_group()
