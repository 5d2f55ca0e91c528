"""torchrun, 2 gloo ranks: a debugging probe enabled on rank 1 only (`if rank == 1`) is a forward hook on the
encoder that returns `output.detach()` (meant to stop the probe's own graph); its return replaces the encoder's
output, so on rank 1 the encoder's parameters get no gradient and DDP's reducer never finishes the step there."""

from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def probe(module: nn.Module, inputs: tuple, output: torch.Tensor) -> torch.Tensor:
    return output.detach()


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    if rank == 1:
        model[0].register_forward_hook(probe)
    ddp = DDP(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    for step in range(3):
        x, y = torch.randn(16, 8), torch.randn(16, 1)
        loss = nn.functional.mse_loss(ddp(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
