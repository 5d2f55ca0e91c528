"""torchrun, 2 gloo ranks: rank 1's native shard reader frees its buffer twice; glibc aborts rank 1 (SIGABRT)
while rank 0 waits in all_reduce; torchrun then stops rank 0."""

import ctypes

import torch
import torch.distributed as dist

LIBC = ctypes.CDLL(None)
LIBC.malloc.restype = ctypes.c_void_p
LIBC.free.argtypes = [ctypes.c_void_p]


def close_reader(buf: int, rank: int) -> None:
    LIBC.free(buf)
    if rank == 1:
        LIBC.free(buf)  # rank 1's error path frees it again


def run(rank: int, world_size: int) -> None:
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    t = torch.ones(4)
    dist.all_reduce(t)
    close_reader(LIBC.malloc(64), rank)
    dist.all_reduce(t)
    print(t)
    dist.destroy_process_group()
