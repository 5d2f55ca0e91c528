"""The model registry: a name in the config picks a builder."""

import torch
from torch import nn

MODELS = {}


def register(name: str):
    def add(builder):
        MODELS[name] = builder
        return builder

    return add


@register("mlp")
def mlp(num_features: int, num_classes: int, hidden: int = 32) -> nn.Module:
    return nn.Sequential(nn.Linear(num_features, hidden), nn.ReLU(), nn.Linear(hidden, num_classes))


@register("wide_mlp")
def wide_mlp(num_features: int, num_classes: int, hidden: int = 32) -> nn.Module:
    return nn.Sequential(nn.Linear(num_features, hidden * 4), nn.GELU(), nn.Linear(hidden * 4, num_classes))


def build_model(spec: dict, num_features: int, num_classes: int) -> nn.Module:
    builder = MODELS[spec["name"]]
    kwargs = {k: v for k, v in spec.items() if k != "name"}
    torch.manual_seed(0)
    return builder(num_features, num_classes, **kwargs)
