"""mp.spawn, 2 gloo ranks: a DCP save under a rank-0 guard, then a barrier.

torch.distributed.checkpoint.save is collective (the ranks agree on a plan); called by rank 0 alone it waits in its
planning gather for rank 1, which waits in the barrier after the guard. Nothing fails: both wait for ever.
"""

import os
import tempfile

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.nn.parallel import DistributedDataParallel as DDP

from zoo.modes.fs_common import spawn


def train(rank: int, world_size: int, root: str) -> None:
    torch.manual_seed(0)
    model = DDP(torch.nn.Linear(8, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"[rank{rank}] epoch done; saving", flush=True)
    if rank == 0:
        dcp.save({"model": model.state_dict()}, checkpoint_id=os.path.join(root, "epoch-1"))
        print("[rank0] saved", flush=True)
    dist.barrier()


def main() -> None:
    spawn(train, tempfile.mkdtemp(prefix="fs_hang_dcp_"))
