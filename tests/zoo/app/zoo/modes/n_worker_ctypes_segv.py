"""A DataLoader worker's __getitem__ copies a sample through ctypes from a buffer whose owner was freed: the
dataset kept the address of a large numpy array, which numpy returned to the system (munmap). SIGSEGV."""

import ctypes

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Decoded(Dataset):
    def __init__(self):
        frames = np.zeros(64 << 20, dtype=np.uint8)  # 64 MiB: a mapping of its own
        self.base = frames.ctypes.data  # a raw address, not a reference
        del frames

    def __len__(self):
        return 16

    def __getitem__(self, i):
        out = ctypes.create_string_buffer(4096)
        ctypes.memmove(out, self.base + i * 4096, 4096)
        return torch.frombuffer(bytearray(out.raw), dtype=torch.uint8)[:8].float()


def main() -> None:
    for batch in DataLoader(Decoded(), batch_size=4, num_workers=2):
        print(batch.sum().item())
