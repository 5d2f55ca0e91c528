"""torchrun, 2 gloo ranks: gradients packed into one bucket by the program's C++ pack_grads before all_reduce.

The model's auxiliary head only sees samples with a box; rank 1's shard has none, so its head's gradients stay None
and the loop packs 2 of the 4 it announced. pack_grads's BucketGuard checks the count in its destructor with
TORCH_CHECK; a destructor is noexcept, so the c10::Error ends in std::terminate: rank 1 aborts. Rank 0 waits in
all_reduce until torchrun stops it.
"""

import faulthandler

import torch
import torch.distributed as dist

from zoo.xt_native import ops


class Net(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = torch.nn.Linear(8, 4)
        self.aux = torch.nn.Linear(4, 4)

    def forward(self, x, has_box: bool):
        h = self.body(x)
        return h + self.aux(h) if has_box else h


def run(rank: int, world_size: int) -> None:
    faulthandler.enable()
    ext = ops()
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    net = Net()
    params = list(net.parameters())
    has_box = rank == 0
    for step in range(3):
        net.zero_grad(set_to_none=True)
        net(torch.randn(4, 8), has_box).pow(2).mean().backward()
        grads = [p.grad for p in params if p.grad is not None]
        bucket = ext.pack_grads(grads, len(params))
        dist.all_reduce(bucket)
        print(f"[rank{rank}] step {step}: bucket of {bucket.numel()}", flush=True)
    dist.destroy_process_group()
