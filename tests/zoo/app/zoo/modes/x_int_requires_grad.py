"""A learnable temperature for the logits, created from an integer literal: torch.tensor(1) is int64, and an
integer tensor cannot require gradients."""

import torch
from torch import nn


class TemperatureScaled(nn.Module):
    def __init__(self, inner: nn.Module, init: int = 1):
        super().__init__()
        self.inner = inner
        self.temperature = nn.Parameter(torch.tensor(init))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.inner(x) / self.temperature


def main() -> None:
    model = TemperatureScaled(nn.Linear(8, 3))
    print(model(torch.randn(2, 8)))
