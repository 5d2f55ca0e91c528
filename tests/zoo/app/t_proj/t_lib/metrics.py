"""The classifier's metrics."""

import torch


def accuracy(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return (logits.argmax(1) == target).float().mean()


def confusion(preds: torch.Tensor, target: torch.Tensor, classes: int = 2) -> torch.Tensor:
    """The confusion matrix, rows the true class, columns the predicted one."""
    counts = torch.bincount(target * classes + preds, minlength=classes * classes)
    return counts.reshape(classes, classes)
