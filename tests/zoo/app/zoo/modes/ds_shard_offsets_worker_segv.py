"""The program's own shard format (a row count, a table of uint64 row offsets written little-endian, then float32
rows) is mapped with libc mmap through ctypes and read by address in fork DataLoader workers. The reader unpacks the
offset table with struct's `>Q` (big-endian): row 0's offset 0 reads right, so the main's check passes; row 1's
reads as 2**63 + ..., and the worker copies from that address."""

import ctypes
import mmap
import os
import struct
import tempfile

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

ROW = 32
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]


def write_shard(path: str, rows: np.ndarray) -> None:
    n = len(rows)
    start = 8 + 8 * n
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", n))
        f.write(struct.pack(f"<{n}Q", *[k * ROW * 4 for k in range(n)]))
        f.write(rows.astype("<f4").tobytes())
    assert os.path.getsize(path) == start + n * ROW * 4


class MappedShard:
    def __init__(self, path: str):
        with open(path, "rb") as f:
            (self.n,) = struct.unpack("<Q", f.read(8))
            self.offsets = struct.unpack(f">{self.n}Q", f.read(8 * self.n))
        self.data_start = 8 + 8 * self.n
        fd = os.open(path, os.O_RDONLY)
        self.base = libc.mmap(None, os.path.getsize(path), mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        os.close(fd)

    def row(self, i: int) -> np.ndarray:
        raw = ctypes.string_at(self.base + self.data_start + self.offsets[i], ROW * 4)
        return np.frombuffer(raw, dtype="<f4")


class ShardRows(Dataset):
    def __init__(self, shard: MappedShard):
        self.shard = shard

    def __len__(self) -> int:
        return self.shard.n

    def __getitem__(self, i: int):
        return torch.from_numpy(self.shard.row(i).copy()), i % 2


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="ds_shard_"), "shard-00000.bin")
    write_shard(path, np.random.default_rng(7).standard_normal((64, ROW)))
    shard = MappedShard(path)
    print(f"{shard.n} rows, first row mean {shard.row(0).mean():.3f}", flush=True)
    loader = DataLoader(ShardRows(shard), batch_size=8, num_workers=2, multiprocessing_context="fork")
    model = torch.nn.Linear(ROW, 2)
    for x, y in loader:
        torch.nn.functional.cross_entropy(model(x), y).backward()
