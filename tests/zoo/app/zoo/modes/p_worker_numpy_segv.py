"""A DataLoader worker wraps a raw pointer as a numpy array (np.ctypeslib.as_array) where its reader returned no
buffer (address 0 plus a header offset), and numpy's sum reads it: a real SIGSEGV inside numpy, in the worker."""

import ctypes

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def read_frame(i: int) -> int:
    return 0 if i == 5 else -1  # the reader's "no frame" is a null address


class Frames(Dataset):
    def __init__(self):
        self.pool = np.ones((8, 256), dtype=np.float32)

    def __len__(self):
        return 8

    def __getitem__(self, i):
        addr = read_frame(i)
        if addr == -1:
            return torch.from_numpy(self.pool[i].copy())
        ptr = ctypes.cast(ctypes.c_void_p(addr + 64), ctypes.POINTER(ctypes.c_float))
        frame = np.ctypeslib.as_array(ptr, shape=(256,))
        return torch.tensor(frame.sum())


def main() -> None:
    loader = DataLoader(Frames(), batch_size=2, num_workers=2)
    for batch in loader:
        print(batch.shape)
