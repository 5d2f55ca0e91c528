"""The encoder's blocks: a residual MLP, and a block that keeps only the first `keep` tokens (token dropping)."""

import torch
from torch import nn


class Residual(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(dim, 2 * dim), nn.Linear(2 * dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.fc2(torch.relu(self.fc1(x)))


class TokenDrop(nn.Module):
    """Keeps the first `keep` tokens of (batch, tokens, dim) and mixes them; `keep` follows a schedule."""

    def __init__(self, dim: int, keep: int):
        super().__init__()
        self.proj, self.keep = nn.Linear(dim, dim), keep

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        kept = x[:, : self.keep]
        return torch.tanh(self.proj(kept)).mean(dim=1)


def stack(dim: int, depth: int) -> nn.Sequential:
    return nn.Sequential(*[Residual(dim) for _ in range(depth)])
