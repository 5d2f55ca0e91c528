"""Synthetic few-shot regression tasks: y = a * sin(x + b)."""

import torch


def task(seed: int, shots: int = 10) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    a = torch.rand(1, generator=g) * 4 + 0.1
    b = torch.rand(1, generator=g) * 3.14
    x = torch.rand(shots, 1, generator=g) * 10 - 5
    return x, a * torch.sin(x + b)


def batch(n: int = 16) -> tuple[torch.Tensor, torch.Tensor]:
    x, y = task(0, n)
    return x, y
