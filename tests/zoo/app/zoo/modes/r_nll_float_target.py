"""nll_loss given the labels as floats (read from a CSV into a float tensor): it wants class indices (Long)."""

import torch
import torch.nn.functional as F


def read_labels() -> torch.Tensor:
    return torch.tensor([1.0, 0.0, 2.0, 1.0])  # what torch.tensor(df["label"].values) gives for a float column


def step(log_probs: torch.Tensor) -> torch.Tensor:
    return F.nll_loss(log_probs, read_labels())


def main() -> None:
    log_probs = torch.log_softmax(torch.randn(4, 3), dim=1)
    print(step(log_probs))
