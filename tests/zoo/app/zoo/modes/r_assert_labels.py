"""A bare `assert` (no message) on the labels fails: a label is out of the model's classes."""

import torch

from zoo.checks import check_labels


def main() -> None:
    check_labels(torch.tensor([0, 1, 2, 10]), num_classes=10)
