"""A training loop whose loss is built with reduction="none" (per-sample weights applied later, meant to be
averaged) and logged with .item() before the mean: a 4-element tensor cannot become a Python number."""

import torch


def weighted_loss(logits: torch.Tensor, y: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    per_sample = torch.nn.functional.cross_entropy(logits, y, reduction="none")
    return per_sample * weights


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 3)
    x, y = torch.randn(4, 8), torch.tensor([0, 2, 1, 2])
    loss = weighted_loss(model(x), y, torch.tensor([1.0, 0.5, 1.0, 2.0]))
    history = [loss.item()]
    print(history)
