"""A small image classifier and its "pretrained" weights (made here, 10 classes, as a hub would give them)."""

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, classes: int = 10, width: int = 16) -> None:
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU())
        self.block = nn.Sequential(nn.Conv2d(width, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.proj = nn.Linear(width, 32)
        self.head = nn.Linear(32, classes)

    def features(self, x: torch.Tensor) -> torch.Tensor:
        return self.proj(self.pool(self.block(self.stem(x))).flatten(1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(torch.relu(self.features(x)))


def pretrained(width: int = 16) -> tuple[dict, dict]:
    """The pretrained model's state_dict and its optimizer's (Adam), after a few steps on 10 classes."""
    torch.manual_seed(0)
    net = Net(10, width)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for _ in range(2):
        loss = nn.functional.cross_entropy(net(torch.randn(8, 3, 16, 16)), torch.randint(0, 10, (8,)))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return net.state_dict(), opt.state_dict()


def batch(n: int = 8, classes: int = 3) -> tuple[torch.Tensor, torch.Tensor]:
    return torch.randn(n, 3, 16, 16), torch.randint(0, classes, (n,))
