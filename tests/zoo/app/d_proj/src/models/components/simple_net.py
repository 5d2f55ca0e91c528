import torch
from torch import nn


class SimpleNet(nn.Module):
    def __init__(self, in_features: int = 16, hidden: int = 32, num_classes: int = 4):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(in_features, hidden), nn.ReLU(), nn.Linear(hidden, num_classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.model(x)
