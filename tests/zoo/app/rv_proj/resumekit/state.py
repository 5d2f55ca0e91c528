"""What a run is made of: a model, an optimizer and a scheduler, built from a small config."""

import torch
from torch import nn


def build_model(width: int = 16) -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(8, width), nn.Tanh(), nn.Linear(width, 1))


def build_optimizer(model: nn.Module, kind: str, lr: float = 1e-2) -> torch.optim.Optimizer:
    if kind == "adam":
        return torch.optim.Adam(model.parameters(), lr=lr)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)


def build_scheduler(opt: torch.optim.Optimizer, kind: str):
    if kind == "warmup":
        return torch.optim.lr_scheduler.LambdaLR(opt, lambda step: min(1.0, (step + 1) / 5))
    return torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
