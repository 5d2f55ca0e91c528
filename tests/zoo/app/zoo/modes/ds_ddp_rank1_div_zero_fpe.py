"""torchrun, 2 gloo ranks: each rank finds a sample's row in its `.npy` shards with the program's C-style locate
(libc div through ctypes, quotient and remainder at once); the split gave rank 1 a shard with 0 rows, and its
rows-per-shard, read from that header, is 0."""

import ctypes
import os
import tempfile

import numpy as np
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class DivT(ctypes.Structure):
    _fields_ = [("quot", ctypes.c_int), ("rem", ctypes.c_int)]


libc = ctypes.CDLL(None)
libc.div.restype = DivT
libc.div.argtypes = [ctypes.c_int, ctypes.c_int]


def rows_per_shard(path: str) -> int:
    with open(path, "rb") as f:
        np.lib.format.read_magic(f)
        shape, _, _ = np.lib.format.read_array_header_1_0(f)
    return shape[0]


def locate(index: int, per_shard: int) -> tuple[int, int]:
    where = libc.div(index, per_shard)
    return where.quot, where.rem


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    folder = os.path.join(tempfile.gettempdir(), f"ds_ddp_shards_{os.environ['MASTER_PORT']}")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"rank{rank}-shard-00000.npy")
    np.save(path, np.ones((40 if rank == 0 else 0, 8), dtype=np.float32))
    model = DDP(torch.nn.Linear(8, 1))
    per_shard = rows_per_shard(path)
    print(f"[rank{rank}] {per_shard} rows per shard", flush=True)
    for step in range(3):
        shard, row = locate(step * 4, per_shard)
        model(torch.full((4, 8), float(row))).sum().backward()
    dist.destroy_process_group()
