"""A DataLoader worker's native decoder hits a corrupt record and calls abort(): the worker dies by SIGABRT and
the main reports `DataLoader worker (pid N) is killed by signal: Aborted.`"""

import ctypes

import torch
from torch.utils.data import DataLoader, Dataset

LIBC = ctypes.CDLL(None)


def decode_record(i: int) -> torch.Tensor:
    if i == 5:
        LIBC.abort()  # as a C decoder's assert() does on a corrupt record
    return torch.full((4,), float(i))


class Records(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return decode_record(i)


def main() -> None:
    torch.set_num_threads(1)
    for batch in DataLoader(Records(), batch_size=2, num_workers=1):
        print(batch.sum())
