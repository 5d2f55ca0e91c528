"""A DataLoader worker exits with status 2 inside __getitem__, as a native decoder's fatal path calls exit()."""

import sys

from torch.utils.data import DataLoader

from zoo.data import Samples, quiet_torch


def decode(i: int) -> None:
    if i == 5:
        sys.exit(2)  # what a C library's `exit(2)` on a corrupt file does to the worker process


def main() -> None:
    quiet_torch()
    for _batch in DataLoader(Samples(fault=decode), batch_size=2, num_workers=2):
        pass
