"""Class-balanced sampling with weights from the log of each class's frequency (meant: its inverse): frequencies
are below 1, so every weight is negative, and WeightedRandomSampler's multinomial refuses them."""

import math

import torch
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler


def main() -> None:
    labels = torch.tensor([0] * 24 + [1] * 6 + [2] * 2)
    freq = {c: (labels == c).float().mean().item() for c in range(3)}
    weights = [math.log(freq[int(c)]) for c in labels]
    sampler = WeightedRandomSampler(weights, num_samples=len(labels))
    loader = DataLoader(TensorDataset(torch.randn(len(labels), 4), labels), batch_size=8, sampler=sampler)
    for _xb, yb in loader:
        print(yb.bincount(minlength=3).tolist())
