"""Discriminative learning rates: a small rate for the backbone, a larger one for the head; the backbone
group was written as model.parameters(), which holds the head's parameters too."""

import torch
from torch import nn


def build_optimizer(model: nn.Sequential) -> torch.optim.Optimizer:
    head = model[-1]
    return torch.optim.AdamW(
        [{"params": model.parameters(), "lr": 1e-4}, {"params": head.parameters(), "lr": 1e-3}], weight_decay=0.01
    )


def main() -> None:
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
    opt = build_optimizer(model)
    x, y = torch.randn(16, 8), torch.randint(0, 2, (16,))
    nn.functional.cross_entropy(model(x), y).backward()
    opt.step()
