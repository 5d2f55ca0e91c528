"""A DataLoader worker's native helper (ctypes) writes through a NULL pointer: the worker dies by SIGSEGV and the
main reports `DataLoader worker (pid N) is killed by signal: Segmentation fault.`"""

import ctypes

import torch
from torch.utils.data import DataLoader, Dataset


class Decoded(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        out = ctypes.c_void_p(0)  # the decoder returned NULL, unchecked
        ctypes.memset(out.value, 0, 16)
        return torch.zeros(2)


def main() -> None:
    torch.set_num_threads(1)
    for batch in DataLoader(Decoded(), batch_size=2, num_workers=1):
        print(batch)
