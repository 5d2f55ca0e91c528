"""Class-balanced sampling over one-hot intent labels."""

import torch
from torch.utils.data import WeightedRandomSampler

from samplekit.datasets import N_INTENTS


def one_hot_labels(dataset) -> torch.Tensor:
    labels = torch.tensor([dataset[i]["label"] for i in range(len(dataset))])
    return torch.nn.functional.one_hot(labels, N_INTENTS).float()


def balanced_sampler(dataset) -> WeightedRandomSampler:
    onehot = one_hot_labels(dataset)
    inv_freq = 1.0 / onehot.sum(0)
    weights = (onehot * inv_freq).sum(1, keepdim=True)
    return WeightedRandomSampler(weights, num_samples=len(dataset), replacement=True)
