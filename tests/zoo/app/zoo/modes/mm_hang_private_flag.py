"""A streaming dataset's header is mapped copy-on-write (np.memmap mode 'c'); the 2 DataLoader workers wait for
its `ready` flag, which the main sets after the workers are started: in its own private copy, which the forked
workers never see. The workers poll for ever; the main waits for the first batch (no DataLoader timeout)."""

import os
import tempfile
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Stream(Dataset):
    def __init__(self, path: str):
        self.header = np.memmap(path, dtype=np.int64, mode="c", shape=(4,))

    def __len__(self):
        return 64

    def __getitem__(self, i):
        while self.header[0] == 0:  # the producer marks the stream ready
            time.sleep(0.05)
        return torch.full((8,), float(i))


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(), "stream.hdr")
    np.zeros(4, dtype=np.int64).tofile(path)
    dataset = Stream(path)
    it = iter(DataLoader(dataset, batch_size=8, num_workers=2))
    dataset.header[0] = 1
    dataset.header.flush()
    print("stream marked ready; waiting for the first batch", flush=True)
    for batch in it:
        print(batch.sum().item())
