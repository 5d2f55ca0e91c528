"""A collate function written as a lambda inside the training function, with spawn workers: the DataLoader must
pickle it to start a worker, and a local lambda cannot be pickled (fine under fork, fails under spawn)."""

import torch
from torch.utils.data import DataLoader, TensorDataset


def train() -> None:
    data = TensorDataset(torch.randn(8, 4), torch.arange(8))
    loader = DataLoader(
        data, batch_size=4, num_workers=1, multiprocessing_context="spawn", collate_fn=lambda batch: batch
    )
    for batch in loader:
        print(len(batch))


def main() -> None:
    torch.set_num_threads(1)
    train()
