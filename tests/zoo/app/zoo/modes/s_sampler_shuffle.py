"""A class-balanced WeightedRandomSampler passed to a DataLoader that also keeps `shuffle=True` from before the
sampler was added: DataLoader refuses the pair."""

import torch
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler


def make_loader(dataset: TensorDataset, labels: torch.Tensor) -> DataLoader:
    counts = torch.bincount(labels).float()
    sampler = WeightedRandomSampler((1.0 / counts)[labels], num_samples=len(labels))
    return DataLoader(dataset, batch_size=8, shuffle=True, sampler=sampler)


def main() -> None:
    x = torch.randn(40, 4)
    labels = torch.tensor([0] * 32 + [1] * 8)
    for features, target in make_loader(TensorDataset(x, labels), labels):
        print(features.shape, target.float().mean().item())
