"""A filter drops every batch's outputs, and torch.cat of the empty list fails."""

import torch


def main() -> None:
    outputs = []
    for _step in range(3):
        out = torch.randn(2, 3)
        if out.abs().max() > 100:  # keeps nothing
            outputs.append(out)
    print(torch.cat(outputs).mean())
