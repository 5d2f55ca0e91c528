"""A small conv encoder with a projection head, and the momentum (key) encoder's update."""

import copy

import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self, dim: int = 32):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
        )
        self.head = nn.Sequential(nn.Linear(32, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.backbone(x))


def key_encoder(query: Encoder) -> Encoder:
    key = copy.deepcopy(query)
    for p in key.parameters():
        p.requires_grad_(False)
    return key


@torch.no_grad()
def momentum_update(query: Encoder, key: Encoder, m: float = 0.99) -> None:
    """key = m * key + (1 - m) * query, over the whole state (BatchNorm's running statistics too)."""
    for k, q in zip(key.state_dict().values(), query.state_dict().values()):
        k.lerp_(q, 1 - m)
