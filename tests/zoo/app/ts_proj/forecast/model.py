import torch
from torch import nn


class WindowMLP(nn.Module):
    def __init__(self, window: int, n_features: int, horizon: int):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(window * n_features, 64), nn.ReLU(), nn.Linear(64, horizon))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)
