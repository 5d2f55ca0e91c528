"""A one-layer attention model and an atomic checkpoint writer."""

import os

import torch


class Attention(torch.nn.Module):
    def __init__(self, dim: int, kv_len: int):
        super().__init__()
        self.q = torch.nn.Linear(dim, dim)
        self.memory = torch.nn.Parameter(torch.randn(kv_len, dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q = self.q(x)  # [B, T, D]
        k = self.memory.expand(x.shape[0], -1, -1)  # [B, M, D]
        scores = torch.bmm(q, k.transpose(1, 2))  # [B, T, M]
        return torch.bmm(scores.softmax(-1), q)  # meant: @ k (the values)


class AtomicCheckpoint:
    """Write to PATH.tmp, publish by rename on exit."""

    def __init__(self, path: str):
        self.path, self.tmp = path, path + ".tmp"

    def __enter__(self) -> "AtomicCheckpoint":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        os.replace(self.tmp, self.path)
