"""A wide MLP head: 512 inputs, 8192 hidden units, 8 classes."""

import torch
from torch import nn


class WideHead(nn.Module):
    def __init__(self, d_in: int = 512, hidden: int = 8192, classes: int = 8) -> None:
        super().__init__()
        self.up = nn.Linear(d_in, hidden)
        self.down = nn.Linear(hidden, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu_(self.up(x))
        return self.down(h)


class ScanNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.fc = nn.Linear(4, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.conv(x).mean(dim=(2, 3)))
