"""Freezing a pretrained embedding projection: its weight is "turned into a buffer" with register_buffer under
the parameter's own name, without deleting the parameter first."""

import torch
from torch import nn


def freeze_as_buffer(layer: nn.Linear) -> None:
    w = layer.weight.detach().clone()
    layer.register_buffer("weight", w)


def main() -> None:
    model = nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 2))
    freeze_as_buffer(model[0])
    print(model(torch.randn(4, 16)).shape)
