"""torch.autograd.set_detect_anomaly(True), as the docs advise for NaN gradients: backward raises at the op."""

import torch

from zoo.data import quiet_torch


def train_step(w):
    loss = torch.sqrt(w - 1.0).sum()  # sqrt of a negative: NaN, and its gradient NaN
    loss.backward()


def main() -> None:
    quiet_torch()
    torch.autograd.set_detect_anomaly(True)
    train_step(torch.zeros(3, requires_grad=True))
