"""torchrun, 2 gloo ranks: between two all_reduce steps rank 1 decodes its next shard through a native helper
(ctypes) given the address of a shard that failed to map (a small offset from NULL), and dies by SIGSEGV; rank 0
waits in the next all_reduce until its peer's socket closes."""

import ctypes

import torch
import torch.distributed as dist


def decode_shard(rank: int, step: int) -> torch.Tensor:
    address = 0x40 if (rank == 1 and step == 2) else None  # shard 2 of rank 1 failed to map: NULL + header
    if address is not None:
        raw = ctypes.string_at(address, 16)
        return torch.frombuffer(bytearray(raw), dtype=torch.float32)
    return torch.ones(4)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    for step in range(4):
        grad = decode_shard(rank, step)
        dist.all_reduce(grad)
    dist.destroy_process_group()
    print(f"rank {rank} done")
