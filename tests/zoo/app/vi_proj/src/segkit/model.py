import torch
from torch import nn


class TinySeg(nn.Module):
    def __init__(self, num_classes: int):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, num_classes, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)
