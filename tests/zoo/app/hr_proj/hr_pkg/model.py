"""hr_proj's model."""

import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self, features: int, width: int) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(features, width), nn.ReLU(), nn.Linear(width, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)
