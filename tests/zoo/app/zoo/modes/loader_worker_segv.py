"""A DataLoader worker's native decoder reads a null pointer at sample 3: the worker dies by SIGSEGV."""

import ctypes

from torch.utils.data import DataLoader

from zoo.data import Samples, quiet_torch


def decode_frame(i: int) -> None:
    if i == 3:
        ctypes.string_at(0)


def main() -> None:
    quiet_torch()
    for _batch in DataLoader(Samples(fault=decode_frame), batch_size=2, num_workers=1):
        pass
