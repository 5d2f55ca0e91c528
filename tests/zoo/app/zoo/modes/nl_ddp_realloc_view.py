"""torchrun, 2 gloo ranks: rank 1 hands libc's realloc a pointer into a numpy array; glibc aborts it.

The token packer keeps its buffer in C memory and grows it with `realloc`. On rank 1 the first shard's header
asks to skip one token, and the program passes `tokens[1:].ctypes.data` (a numpy view, 4 bytes into numpy's
block) to `realloc`: glibc prints `realloc(): invalid pointer` and raises SIGABRT. Rank 0 waits in all_reduce
and torchrun stops it.
"""

import ctypes
import faulthandler

import numpy as np
import torch
import torch.distributed as dist

LIBC = ctypes.CDLL(None)
LIBC.realloc.restype = ctypes.c_void_p
LIBC.realloc.argtypes = [ctypes.c_void_p, ctypes.c_size_t]


def grow(tokens: np.ndarray, skip: int, capacity: int) -> int:
    view = tokens[skip:]
    ptr = LIBC.realloc(view.ctypes.data, capacity * tokens.itemsize)
    if not ptr:
        raise MemoryError("realloc failed")
    return ptr


def run(rank: int, world_size: int) -> None:
    faulthandler.enable()
    dist.init_process_group("gloo")
    tokens = np.arange(50000, dtype=np.int32)
    skip = 1 if rank == 1 else 0
    for step in range(3):
        if skip:
            grow(tokens, skip, capacity=200000)
        t = torch.tensor([float(tokens[step])])
        dist.all_reduce(t)
        print(f"[rank{rank}] step {step} sum {t.item():.0f}", flush=True)
    dist.destroy_process_group()
