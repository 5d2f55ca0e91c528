"""The parameter server's side: an embedding table updated by sparse gradients, and the shard header reader."""

import ctypes

import torch


class EmbeddingServer:
    def __init__(self, rows: int, dim: int) -> None:
        self.table = torch.zeros(rows, dim)
        self.updates = 0

    def apply(self, ids: torch.Tensor, grads: torch.Tensor, lr: float) -> int:
        self.table.index_add_(0, ids, grads, alpha=-lr)
        self.updates += 1
        return self.updates

    def lookup(self, ids: torch.Tensor) -> torch.Tensor:
        return self.table[ids]


def read_header(offset: int) -> bytes:
    # the shard index keeps each shard's name as a C string at the address its header gives
    return ctypes.string_at(offset)


def shard_name(rank: int) -> bytes:
    names = ctypes.create_string_buffer(b"shard-0000")
    offset = ctypes.addressof(names) if rank == 0 else 0
    return read_header(offset)
