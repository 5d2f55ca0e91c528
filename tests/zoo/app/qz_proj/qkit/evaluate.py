"""Accuracy of a model, a checkpoint, or a traced model over the data."""

import torch
from torch import nn


def accuracy(model: nn.Module, x: torch.Tensor, y: torch.Tensor, batch_size: int = 8) -> float:
    correct = 0
    with torch.no_grad():
        for i in range(0, len(x), batch_size):
            out = model(x[i : i + batch_size])
            correct += int((out.argmax(dim=1) == y[i : i + batch_size]).sum())
    return correct / len(x)


def evaluate_checkpoint(path: str, x: torch.Tensor, y: torch.Tensor) -> float:
    from qkit.model import Net

    model = Net()
    model.load_state_dict(torch.load(path))
    acc = accuracy(model.eval(), x, y)
    print(f"checkpoint {path}: accuracy {acc:.2f}")
    return acc
