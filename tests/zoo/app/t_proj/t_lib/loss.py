"""The training loss, chosen by the `loss` config group: cross-entropy or focal, optionally class-weighted."""

from collections.abc import Sequence
from typing import Callable, Optional

import torch
from torch.nn import functional as F


def make_loss(name: str, class_weights: Optional[Sequence[float]] = None, gamma: float = 2.0) -> Callable:
    weight = None if class_weights is None else torch.tensor(list(class_weights), dtype=torch.float32)

    def ce(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(logits, target, weight=weight)

    def focal(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        per_row = F.cross_entropy(logits, target, weight=weight, reduction="none")
        return ((1 - torch.exp(-per_row)) ** gamma * per_row).mean()

    return focal if name == "focal" else ce
