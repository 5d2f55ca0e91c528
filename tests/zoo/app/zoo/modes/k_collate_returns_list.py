"""A custom collate_fn returns a list of per-sample tensors instead of a stacked tensor; the model gets a list."""

import torch
from torch.utils.data import DataLoader, TensorDataset


def collate(samples):
    return [x for (x,) in samples]  # forgot torch.stack


def main() -> None:
    model = torch.nn.Linear(4, 2)
    loader = DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=4, collate_fn=collate)
    for batch in loader:
        print(model(batch).sum())
