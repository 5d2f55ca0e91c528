"""A Gaussian policy whose scale is the batch's standard deviation of its actions; the last batch holds one
sample, whose std is NaN, and torch.distributions' argument validation refuses it."""

import torch
from torch.distributions import Normal


def policy(actions: torch.Tensor) -> Normal:
    return Normal(actions.mean(0), actions.std(0))


def main() -> None:
    torch.manual_seed(0)
    actions = torch.randn(9, 2)
    for batch in actions.split(4):
        dist = policy(batch)
        print(dist.log_prob(batch).sum())
