"""Feature shards on disk, mapped into memory and viewed as tensors without a copy."""

import mmap
import os
import weakref

import torch

DIM = 64


def write_shard(path: str, rows: int, value: float = 1.0) -> None:
    torch.full((rows, DIM), value).numpy().tofile(path)


class MappedShard:
    """`with MappedShard(path) as shard:` maps the file; leaving the block unmaps it."""

    def __init__(self, path: str):
        self.path = path

    def __enter__(self) -> "MappedShard":
        self._file = open(self.path, "r+b")
        self._map = mmap.mmap(self._file.fileno(), 0)
        return self

    def features(self) -> torch.Tensor:
        return torch.frombuffer(self._map, dtype=torch.float32).view(-1, DIM)

    def __exit__(self, *exc) -> None:
        self._map.close()
        self._file.close()


def _release_disk(path: str) -> None:
    os.truncate(path, 0)


class SpillFile:
    """Decoded features spilled to a file and mapped back; the disk space is given back when the owner goes."""

    def __init__(self, path: str, nbytes: int):
        with open(path, "wb") as f:
            f.truncate(nbytes)
        self._file = open(path, "r+b")
        self._map = mmap.mmap(self._file.fileno(), nbytes)
        weakref.finalize(self, _release_disk, path)

    def tensor(self) -> torch.Tensor:
        return torch.frombuffer(self._map, dtype=torch.float32).view(-1, DIM)
