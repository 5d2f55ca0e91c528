"""Oversampling the rare class: the sampler draws as many samples as there are rare examples, counted with
a label spelt differently from the data's ("Positive" vs "positive"), so zero."""

import torch
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler


def make_loader(labels: list[str]) -> DataLoader:
    rare = [i for i, label in enumerate(labels) if label == "Positive"]
    weights = [5.0 if label == "positive" else 1.0 for label in labels]
    sampler = WeightedRandomSampler(weights, num_samples=2 * len(rare), replacement=True)
    x = torch.randn(len(labels), 4)
    y = torch.tensor([label == "positive" for label in labels]).long()
    return DataLoader(TensorDataset(x, y), batch_size=8, sampler=sampler)


def main() -> None:
    labels = ["negative"] * 40 + ["positive"] * 4
    for x, y in make_loader(labels):
        print(x.shape, y.sum().item())
