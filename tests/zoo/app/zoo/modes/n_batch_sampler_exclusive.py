"""A bucketing batch sampler added to a loader that still passes batch_size and shuffle."""

import torch
from torch.utils.data import BatchSampler, DataLoader, SequentialSampler, TensorDataset


def make_loader(data: TensorDataset) -> DataLoader:
    buckets = BatchSampler(SequentialSampler(data), batch_size=8, drop_last=False)
    return DataLoader(data, batch_sampler=buckets, batch_size=8, shuffle=True)


def main() -> None:
    for (batch,) in make_loader(TensorDataset(torch.randn(64, 4))):
        print(batch.sum().item())
