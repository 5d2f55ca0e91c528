"""Variable-length sequences with the default collate function: torch.stack refuses samples of two lengths."""

import torch
from torch.utils.data import DataLoader, Dataset

from zoo.data import quiet_torch


class Sentences(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return torch.zeros(3 + i)


def main() -> None:
    quiet_torch()
    for _batch in DataLoader(Sentences(), batch_size=2):
        pass
