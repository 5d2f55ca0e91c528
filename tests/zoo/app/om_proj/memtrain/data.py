"""Datasets: scans behind a small binary header, and records in an LMDB shard opened lazily in each worker."""

import os
import pickle
import struct

import lmdb
import numpy as np
import torch
from torch.utils.data import Dataset

# the reader's map size: "large enough for any shard we will ever write"
MAX_DB_BYTES = 1 << 40


def encode_scan(h: int, w: int, seed: int, big_endian: bool = False) -> bytes:
    pixels = np.random.default_rng(seed).integers(0, 255, (h, w, 3), dtype=np.uint8)
    head = struct.pack(">HH" if big_endian else "<HH", h, w)
    return head + pixels.tobytes()


class ScanDataset(Dataset):
    """Scans exported as `<HH` (height, width) then RGB bytes; scan 6 came from the old exporter (`>HH`)."""

    def __init__(self, n: int = 12) -> None:
        self.blobs = [encode_scan(40, 30, i, big_endian=(i == 6)) for i in range(n)]

    def __len__(self) -> int:
        return len(self.blobs)

    def __getitem__(self, i: int) -> torch.Tensor:
        blob = self.blobs[i]
        h, w = struct.unpack("<HH", blob[:4])
        img = np.empty((h, w, 3), dtype=np.float32)
        img[:] = np.frombuffer(blob[4:], dtype=np.uint8)[: h * w * 3].reshape(h, w, 3) / 255.0
        return torch.from_numpy(img).permute(2, 0, 1)


def write_shard(path: str, n: int = 16) -> None:
    env = lmdb.open(path, map_size=64 << 20, subdir=False)
    with env.begin(write=True) as txn:
        for i in range(n):
            txn.put(b"%05d" % i, pickle.dumps((np.full(16, i, np.float32), i % 2)))
    env.close()


class ShardDataset(Dataset):
    """Records in one LMDB file; each worker opens its own environment on first use."""

    def __init__(self, path: str, n: int = 16) -> None:
        self.path, self.n, self.env = path, n, None

    def __len__(self) -> int:
        return self.n

    def _open(self) -> lmdb.Environment:
        return lmdb.open(self.path, map_size=MAX_DB_BYTES, subdir=False, readonly=True, lock=False)

    def __getitem__(self, i: int):
        if self.env is None:
            self.env = self._open()
        with self.env.begin() as txn:
            x, y = pickle.loads(txn.get(b"%05d" % i))
        return torch.from_numpy(x), y


def shard_dir() -> str:
    d = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"om_proj-{os.getpid()}")
    os.makedirs(d, exist_ok=True)
    return d
