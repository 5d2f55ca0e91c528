"""A Dataset holding a generator, sent to a spawn-started DataLoader worker: pickling it fails in the main."""

import torch
from torch.utils.data import DataLoader, Dataset


class Lines(Dataset):
    def __init__(self):
        self.source = (str(i) for i in range(16))  # a generator, kept on the dataset

    def __len__(self):
        return 16

    def __getitem__(self, i):
        return torch.tensor([float(next(self.source))])


def main() -> None:
    loader = DataLoader(Lines(), batch_size=4, num_workers=1, multiprocessing_context="spawn")
    for batch in loader:
        print(batch.shape)
