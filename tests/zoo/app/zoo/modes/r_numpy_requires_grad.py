"""Logging predictions with .numpy() on a tensor still in the autograd graph."""

import torch


def to_numpy(preds: torch.Tensor):
    return preds.numpy()


def main() -> None:
    model = torch.nn.Linear(4, 2)
    print(to_numpy(model(torch.randn(3, 4))))
