"""A token Dataset maps its file with mmap.mmap in __init__; the main counts the label histogram, then closes the
mapping "to free it before the workers fork", and the 2 forked DataLoader workers slice a closed mmap."""

import mmap
import os
import tempfile

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

SEQ = 32


class TokenWindows(Dataset):
    def __init__(self, path: str):
        self.file = open(path, "rb")
        self.mm = mmap.mmap(self.file.fileno(), 0, access=mmap.ACCESS_READ)
        self.windows = len(self.mm) // (2 * SEQ)

    def __len__(self):
        return self.windows

    def label_histogram(self):
        return np.bincount(np.frombuffer(self.mm[: 2 * SEQ * len(self)], dtype=np.uint16) % 4)

    def close(self):
        self.mm.close()
        self.file.close()

    def __getitem__(self, i):
        window = self.mm[i * 2 * SEQ : (i + 1) * 2 * SEQ]
        return torch.from_numpy(np.frombuffer(window, dtype=np.uint16).astype(np.int64))


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(), "tokens.u16")
    np.random.default_rng(0).integers(0, 1000, 64 * SEQ, dtype=np.uint16).tofile(path)
    dataset = TokenWindows(path)
    print(f"label histogram {dataset.label_histogram().tolist()}", flush=True)
    dataset.close()  # the workers "reopen what they need"
    loader = DataLoader(dataset, batch_size=8, num_workers=2)
    for batch in loader:
        print(batch.shape)
