"""Feature shards: raw float32 rows of DIM columns, one file each, opened with np.memmap."""

import os

import numpy as np
import torch

DIM = 16


def write_shards(folder: str, rows_per_shard: list[int]) -> list[str]:
    """One file per shard; a writer that crashed leaves its shard with 0 rows."""
    paths = []
    for k, rows in enumerate(rows_per_shard):
        path = os.path.join(folder, f"shard-{k:03d}.f32")
        np.random.default_rng(k).random((rows, DIM), dtype=np.float32).tofile(path)
        paths.append(path)
    return paths


def open_shard(path: str) -> np.memmap:
    return np.memmap(path, dtype=np.float32, mode="r").reshape(-1, DIM)


def open_shards(paths: list[str]) -> list[np.memmap]:
    return [open_shard(p) for p in paths]


def write_tokens(path: str, n: int) -> None:
    """The tokenizer's output: uint16 ids (a vocabulary under 65536)."""
    np.random.default_rng(0).integers(0, 50000, n, dtype=np.uint16).tofile(path)


def load_tokens(path: str, n: int) -> torch.Tensor:
    """Maps the token file as a tensor without reading it."""
    return torch.from_file(path, shared=False, size=n, dtype=torch.int32)
