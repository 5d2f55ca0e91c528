"""torchrun, 2 gloo ranks: rank 1 (the evaluation rank) scripts the model for speed; its forward has a nested def."""

import os

import torch
import torch.distributed as dist
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        def gelu_tanh(t):
            return 0.5 * t * (1 + torch.tanh(0.79788456 * (t + 0.044715 * t**3)))

        return gelu_tanh(self.fc(x))


def run(rank: int, world_size: int) -> None:
    torch.set_num_threads(1)
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    model = Net()
    if rank == 1:
        model = torch.jit.script(model)
    loss = model(torch.randn(4, 8)).pow(2).mean()
    loss.backward()
    for p in model.parameters():
        dist.all_reduce(p.grad)
    print(f"rank {rank}: step done", flush=True)
    dist.destroy_process_group()
