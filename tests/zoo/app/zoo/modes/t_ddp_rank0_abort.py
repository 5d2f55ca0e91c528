"""torchrun, 2 gloo ranks: after the first all_reduce, rank 0's native shard writer fails an assertion and calls
abort() (libc, through ctypes, as a C extension's assert does): SIGABRT; rank 1 waits in dist.barrier() until its
peer's socket closes."""

import ctypes

import torch
import torch.distributed as dist


def write_shard(rank: int, grad: torch.Tensor) -> None:
    if rank == 0:
        ctypes.CDLL(None).abort()  # the native writer's assert(offset % 4096 == 0) failed


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    grad = torch.ones(4)
    dist.all_reduce(grad)
    write_shard(rank, grad)
    dist.barrier()
    dist.destroy_process_group()
    print(f"rank {rank} done")
