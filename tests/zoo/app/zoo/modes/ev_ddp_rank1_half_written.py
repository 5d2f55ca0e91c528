"""torchrun, 2 gloo ranks: rank 0 saves the evaluated model; rank 1, instead of a barrier, polls until the file
exists and loads it at once, while rank 0 is still writing it."""

import os
import time

import torch
import torch.distributed as dist


def wait_and_load(path: str):
    while not os.path.exists(path):
        time.sleep(0.005)
    return torch.load(path, weights_only=True)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    path = "/tmp/ev_ddp_best.pt"
    if rank == 0 and os.path.exists(path):
        os.remove(path)
    dist.barrier()
    if rank == 0:
        state = {f"layer{i}.weight": torch.randn(1024, 1024) for i in range(24)}
        torch.save(state, path)
        print("rank 0: saved", path, flush=True)
    else:
        state = wait_and_load(path)
        print("rank 1: loaded", len(state), "tensors", flush=True)
    dist.barrier()
    dist.destroy_process_group()
