"""The program's own sanity checks on a batch, as many training scripts carry them: bare asserts, no message."""

import torch


def check_batch(x: torch.Tensor) -> None:
    assert x.dim() == 2


def check_labels(y: torch.Tensor, num_classes: int) -> None:
    assert int(y.max()) < num_classes
