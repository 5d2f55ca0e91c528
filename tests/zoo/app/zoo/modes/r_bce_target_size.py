"""BCEWithLogitsLoss of a [N, 1] output against [N] labels: the sizes must match."""

import torch


def main() -> None:
    head = torch.nn.Linear(4, 1)
    criterion = torch.nn.BCEWithLogitsLoss()
    labels = torch.tensor([1.0, 0.0, 1.0, 0.0])
    loss = criterion(head(torch.randn(4, 4)), labels)
    print(loss)
