"""torchrun, 2 gloo ranks: both map the shared feature cache with np.memmap; rank 1 "rebuilds" it in place (open
'wb' truncates it; its new rows come later) and waits in the next all_reduce; rank 0, after the barrier, copies
rows of its mapping past the file's new end: a real SIGBUS in rank 0, then rank 1 loses its peer."""

import os
import tempfile

import numpy as np
import torch
import torch.distributed as dist

ROWS, DIM = 256, 1024


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    path = os.path.join(tempfile.gettempdir(), f"mm_ddp_cache_{os.getppid()}.f32")
    if rank == 0:
        np.ones((ROWS, DIM), dtype=np.float32).tofile(path)
    dist.barrier()
    feats = np.memmap(path, dtype=np.float32, mode="r", shape=(ROWS, DIM))
    print(f"rank {rank}: mapped {feats.shape}", flush=True)
    dist.barrier()
    if rank == 1:
        cache = open(path, "wb")  # rebuilt in place: truncated now, rewritten after the epoch
        print("rank 1: rebuilding the cache", flush=True)
    dist.barrier()
    total = torch.zeros(1)
    for start in range(0, ROWS, 64):
        if rank == 0:
            total += torch.from_numpy(np.array(feats[start : start + 64])).sum()
        dist.all_reduce(total)
    if rank == 1:
        cache.close()
    print(f"rank {rank}: total {total.item()}")
    dist.destroy_process_group()
