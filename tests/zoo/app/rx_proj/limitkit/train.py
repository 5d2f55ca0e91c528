"""The training loop of a small MLP, with its step counted."""

import torch
from torch import nn


def make_model(dim: int, hidden: int) -> nn.Module:
    return nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, 4))


def fit(model: nn.Module, batches, lr: float = 0.01) -> int:
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    steps = 0
    for x, y in batches:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        steps += 1
    return steps


def pretrain_features(dim: int, rounds: int) -> torch.Tensor:
    """A long unsupervised warm-up: power iterations on a random covariance, no time check."""
    torch.set_num_threads(1)
    cov = torch.randn(dim, dim)
    cov = cov @ cov.T
    v = torch.randn(dim, 1)
    for _ in range(rounds):
        v = cov @ (cov @ v)
        v = v / v.norm()
    return v
