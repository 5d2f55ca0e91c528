"""A second loss.backward() through a graph whose buffers the first one freed (a loss reused across steps)."""

import torch

from zoo.data import quiet_torch


def main() -> None:
    quiet_torch()
    w = torch.ones(3, requires_grad=True)
    loss = (w.exp() * 2).sum()
    for _step in range(2):
        loss.backward()
