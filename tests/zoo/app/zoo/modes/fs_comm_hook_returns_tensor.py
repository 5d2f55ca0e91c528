"""torchrun, 2 gloo ranks: a DDP communication hook that averages the bucket itself and returns the tensor.

The hook was written from a blog's sketch of gradient averaging: all_reduce the bucket synchronously, divide, return
it. DDP wants a torch.futures.Future from a hook; the first backward's reducer refuses what it got, on every rank.
"""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def average_hook(state, bucket):
    buf = bucket.buffer()
    dist.all_reduce(buf)
    return buf.div_(dist.get_world_size())


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1)))
    model.register_comm_hook(None, average_hook)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(3):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
