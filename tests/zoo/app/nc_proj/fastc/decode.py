"""Decoding with the C code: a frame decoder writing into a float buffer, and a dataset of shard files."""

import os

import numpy as np
import torch
from torch.utils.data import Dataset

from fastc.native import load

FRAME = 12_000_000  # floats: a 48 MB output buffer


class Decoder:
    def __init__(self) -> None:
        self.lib = load()
        self.out_addr = np.empty(FRAME, dtype=np.float32).ctypes.data  # the array itself is not kept
        self.lib.fastc_set_output(self.out_addr, FRAME)

    def decode(self, raw: np.ndarray) -> int:
        return self.lib.fastc_decode(raw.ctypes.data, raw.size)


def write_shards(folder: str, n: int, missing: int) -> list:
    paths = []
    for i in range(n):
        path = os.path.join(folder, f"shard-{i:03d}.f32")
        if i != missing:
            np.random.rand(64).astype(np.float32).tofile(path)
        paths.append(path)
    return paths


class ShardDataset(Dataset):
    def __init__(self, paths: list) -> None:
        self.paths = paths
        self.lib = None

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, i: int) -> torch.Tensor:
        if self.lib is None:
            self.lib = load()
        handle = self.lib.fastc_open(self.paths[i].encode())
        n = self.lib.fastc_count(handle)
        out = np.empty(n, dtype=np.float32)
        self.lib.fastc_read(handle, out.ctypes.data, n)
        self.lib.fastc_close(handle)
        return torch.from_numpy(out).mean().unsqueeze(0)
