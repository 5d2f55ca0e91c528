"""torchrun, 2 gloo ranks: each rank saves its own checkpoint (`rank{N}.pt`); rank 1's last save failed quietly, so
on requeue rank 0 resumes at step 5 and rank 1 at step 2. Both loop to step 8, averaging gradients each step:
rank 0 runs out of steps first, saves and leaves, and rank 1's next all_reduce has no peer."""

import os
import tempfile

import torch
import torch.distributed as dist
from torch import nn


def average_grads(model: nn.Module, world_size: int) -> None:
    for p in model.parameters():
        dist.all_reduce(p.grad)
        p.grad /= world_size


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    run_dir = os.path.join(tempfile.gettempdir(), f"rv-ddp-{os.environ.get('TORCHELASTIC_RUN_ID', 'x')}")
    os.makedirs(run_dir, exist_ok=True)
    torch.manual_seed(0)
    model = nn.Linear(8, 1)
    torch.save({"model": model.state_dict(), "step": 5 if rank == 0 else 2}, os.path.join(run_dir, f"rank{rank}.pt"))
    start = torch.load(os.path.join(run_dir, f"rank{rank}.pt"))["step"]
    print(f"rank {rank} resumes at step {start}", flush=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _step in range(start, 8):
        opt.zero_grad()
        model(torch.randn(4, 8)).pow(2).mean().backward()
        average_grads(model, world_size)
        opt.step()
    print(f"rank {rank} done", flush=True)
    dist.destroy_process_group()
