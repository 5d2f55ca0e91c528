"""The models the config's `_target_` names."""

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, in_dim: int, hidden: int, out_dim: int, pool: str = "mean", cls_token: bool = False):
        super().__init__()
        if pool not in ("mean", "max", "cls"):
            raise ValueError(f"unknown pool {pool!r}")
        if pool == "cls" and not cls_token:
            raise ValueError("pool='cls' needs a cls token: set model.cls_token=true")
        self.pool = pool
        self.cls = nn.Parameter(torch.zeros(1, 1, in_dim)) if cls_token else None
        self.body = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, out_dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.cls is not None:
            x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1)
        h = self.body(x)
        if self.pool == "cls":
            return h[:, 0]
        return h.mean(1) if self.pool == "mean" else h.amax(1)
