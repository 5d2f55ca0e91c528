"""A cached feature computed under torch.inference_mode, then used in training: autograd refuses to save it."""

import torch


def main() -> None:
    layer = torch.nn.Linear(4, 4)
    with torch.inference_mode():
        cached = torch.randn(2, 4) * 2
    loss = layer(cached).pow(2).sum()
    loss.backward()
