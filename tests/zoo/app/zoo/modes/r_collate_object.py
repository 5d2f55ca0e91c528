"""A dataset returns its own record object: default_collate does not know how to batch it."""

import torch
from torch.utils.data import DataLoader, Dataset


class Record:
    def __init__(self, i: int):
        self.pixels = torch.zeros(4)
        self.label = i % 2


class Records(Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        return Record(i)


def main() -> None:
    for _batch in DataLoader(Records(), batch_size=2):
        pass
