"""torch.multiprocessing.spawn, 2 gloo ranks: each rank clips its gradients with the program's C++ clip_scale_.

The embedding of the rare tokens is used only by batches that hold one; rank 1's shard holds none, so that
parameter's .grad is None there and pybind11 refuses None for an at::Tensor: TypeError, incompatible function
arguments. Rank 0 waits in all_reduce until spawn stops it.
"""

import faulthandler
import os
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

from zoo.xt_native import ops


class Tagger(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.common = torch.nn.Embedding(16, 8)
        self.rare = torch.nn.Embedding(4, 8)

    def forward(self, ids, rare_ids):
        h = self.common(ids).mean(0)
        return h + self.rare(rare_ids).mean(0) if len(rare_ids) else h


def worker(rank: int, world_size: int) -> None:
    faulthandler.enable()
    ext = ops()
    dist.init_process_group("gloo", rank=rank, world_size=world_size, timeout=timedelta(seconds=60))
    net = Tagger()
    ids = torch.arange(6)
    rare = torch.tensor([1, 2]) if rank == 0 else torch.tensor([], dtype=torch.long)
    net(ids, rare).sum().backward()
    for p in net.parameters():
        ext.clip_scale_(p.grad, 1.0, world_size)
        dist.all_reduce(p.grad)
    print(f"rank {rank}: step done", flush=True)
    dist.destroy_process_group()


def main() -> None:
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(29700 + os.getpid() % 1000))
    ops()
    mp.spawn(worker, args=(2,), nprocs=2)
