"""Token sequences of different lengths batched by default_collate inside a worker: the worker's
`stack expects each tensor to be equal size`, re-raised in the main as `Caught RuntimeError in DataLoader
worker process 0`."""

import torch
from torch.utils.data import DataLoader, Dataset


class Sentences(Dataset):
    def __init__(self):
        self.lengths = [7, 7, 9, 5, 7, 11, 3, 7]

    def __len__(self):
        return len(self.lengths)

    def __getitem__(self, i):
        return torch.arange(self.lengths[i])  # no padding: each sentence keeps its own length


def main() -> None:
    torch.set_num_threads(1)
    loader = DataLoader(Sentences(), batch_size=4, num_workers=1)
    for tokens in loader:
        print(tokens.shape)
