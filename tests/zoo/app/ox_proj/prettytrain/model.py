"""A small MLP classifier; an optional LayerNorm over the hidden features; a bag-of-words pooling."""

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, cfg: dict):
        super().__init__()
        self.inp = nn.Linear(cfg["features"], cfg["hidden"])
        self.norm = nn.LayerNorm(cfg["norm_dim"]) if cfg["norm_dim"] else nn.Identity()
        self.drop = nn.Dropout(cfg["dropout"])
        self.out = nn.Linear(cfg["hidden"], cfg["num_classes"])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.norm(torch.relu(self.inp(x)))
        return self.out(self.drop(h))


def pool_words(x: torch.Tensor) -> torch.Tensor:
    """Max-pool word counts (samples x 4 words x features/4) to one vector per sample."""
    return x.max(dim=1).values
