"""Evaluation metrics, with checks on what they are given."""

import torch


def accuracy(preds: torch.Tensor, targets: torch.Tensor) -> float:
    if preds.shape != targets.shape:
        raise ValueError(f"accuracy: {tuple(preds.shape)} predictions for {tuple(targets.shape)} targets")
    return (preds == targets).float().mean().item()
