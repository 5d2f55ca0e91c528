"""Indices computed by division are float: indexing with a float tensor is refused."""

import torch


def main() -> None:
    table = torch.randn(10, 3)
    idx = torch.arange(0, 10, 2) / 2  # float division: float32 indices
    print(table[idx].sum())
