"""Checkpoint save and load."""

import numpy as np
import torch


def save(path: str, model, metrics: dict, device: str = "cpu") -> None:
    torch.save({"model": model.state_dict(), "metrics": metrics, "device": device}, path)


def load(path: str, map_location=None):
    return torch.load(path, map_location=map_location)


def best_metric(values) -> object:
    return np.mean(values)
