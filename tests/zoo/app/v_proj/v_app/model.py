"""The classifier."""

from omegaconf import DictConfig
from torch import nn


def build_model(data: DictConfig, hidden: int) -> nn.Module:
    return nn.Sequential(nn.Linear(data.features, hidden), nn.ReLU(), nn.Linear(hidden, data.classes))
