"""A DataLoader worker reads from a named pipe that no process ever writes: the worker blocks in open(), the main
waits for its batch for ever (no DataLoader timeout set)."""

import os
import tempfile

import torch
from torch.utils.data import DataLoader, Dataset


class Stream(Dataset):
    def __init__(self, fifo: str):
        self.fifo = fifo

    def __len__(self):
        return 4

    def __getitem__(self, i):
        with open(self.fifo, "rb") as f:  # blocks: a FIFO opens only when a writer opens it too
            return torch.frombuffer(bytearray(f.read(16)), dtype=torch.float32)


def main() -> None:
    torch.set_num_threads(1)
    fifo = os.path.join(tempfile.mkdtemp(), "frames")
    os.mkfifo(fifo)
    for batch in DataLoader(Stream(fifo), batch_size=2, num_workers=1):
        print(batch.shape)
