"""A train/validation/test split given as counts computed by rounding each fraction of 50 samples: 35 + 8 + 8 is
51, not 50, so random_split refuses the lengths."""

import torch
from torch.utils.data import TensorDataset, random_split


def split(dataset, fractions: tuple) -> list:
    lengths = [round(f * len(dataset)) for f in fractions]
    return random_split(dataset, lengths, generator=torch.Generator().manual_seed(0))


def main() -> None:
    data = TensorDataset(torch.randn(50, 4), torch.randint(0, 2, (50,)))
    train, val, test = split(data, (0.7, 0.15, 0.15))
    print(len(train), len(val), len(test))
