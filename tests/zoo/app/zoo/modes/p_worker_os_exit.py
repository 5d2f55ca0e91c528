"""A DataLoader worker whose record decoder ends the process with os._exit(0) on a record it cannot read (as a
native decoder's error path that calls exit does): no exception, no traceback, exit status 0, mid-epoch."""

import os

import torch
from torch.utils.data import DataLoader, Dataset


def decode(record: int) -> torch.Tensor:
    if record == 13:  # a truncated record: the decoder gives up
        os._exit(0)
    return torch.full((4,), float(record))


class Records(Dataset):
    def __len__(self):
        return 32

    def __getitem__(self, i):
        return decode(i)


def main() -> None:
    loader = DataLoader(Records(), batch_size=4, num_workers=2)
    total = 0.0
    for batch in loader:
        total += batch.sum().item()
    print(total)
