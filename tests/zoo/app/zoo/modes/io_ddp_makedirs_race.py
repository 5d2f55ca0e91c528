"""torchrun, 2 gloo ranks: every rank creates the run's checkpoint folder with the check-then-create idiom
(`if not os.path.exists(d): os.makedirs(d)`); both ranks see it missing, rank 0 creates it, and rank 1's
makedirs (a moment later, after loading its shard) finds it there. Rank 0 goes on to the first all_reduce."""

import os
import tempfile
import time
from datetime import timedelta

import torch
import torch.distributed as dist


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    base = [tempfile.mkdtemp(prefix="io-ddp-run-") if rank == 0 else None]
    dist.broadcast_object_list(base)
    ckpt_dir = os.path.join(base[0], "checkpoints")
    dist.barrier()
    missing = not os.path.exists(ckpt_dir)
    dist.barrier()
    if rank == 1:
        time.sleep(0.5)  # loading its shard
    if missing:
        os.makedirs(ckpt_dir)
    grad = torch.ones(4) * (rank + 1)
    dist.all_reduce(grad)
    print(f"rank {rank}: step 0 grad {grad.tolist()}", flush=True)
    dist.destroy_process_group()
