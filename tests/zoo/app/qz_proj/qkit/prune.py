"""Magnitude pruning of the hidden layer."""

import torch.nn.utils.prune as prune
from torch import nn


def prune_hidden(model: nn.Module, amount: float = 0.5) -> nn.Module:
    prune.l1_unstructured(model.fc1, name="weight", amount=amount)
    print(f"pruned fc1: {float((model.fc1.weight == 0).float().mean()):.2f} sparse")
    return model


def make_permanent(model: nn.Module) -> nn.Module:
    """Fold the mask into the weight, dropping the reparametrization."""
    prune.remove(model.fc1, "weight")
    return model
