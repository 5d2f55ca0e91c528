"""Early stopping on a validation loss left unreduced (reduction="none", kept for a per-sample histogram):
`if loss < best` on a vector."""

import torch
from torch import nn


def validate(model: nn.Module) -> torch.Tensor:
    x, y = torch.randn(16, 4), torch.randint(0, 2, (16,))
    return nn.functional.cross_entropy(model(x), y, reduction="none")


def main() -> None:
    model = nn.Linear(4, 2)
    best, patience = float("inf"), 0
    for epoch in range(3):
        loss = validate(model)
        if loss < best:
            best, patience = loss, 0
        else:
            patience += 1
        print(f"epoch {epoch}: patience {patience}")
