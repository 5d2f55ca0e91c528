"""A masked mean-pooling classifier."""

import torch
from torch import nn


class Pooler(nn.Module):
    def __init__(self, dim: int = 6, hidden: int = 16):
        super().__init__()
        self.proj = nn.Linear(dim, hidden)
        self.head = nn.Linear(hidden, 2)

    def forward(self, x: torch.Tensor, mask) -> torch.Tensor:
        h = torch.relu(self.proj(x))
        if mask is not None:
            h = h * mask.unsqueeze(-1)
            return self.head(h.sum(1) / mask.sum(1, keepdim=True).clamp(min=1))
        return self.head(h.mean(1))
