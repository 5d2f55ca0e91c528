"""A dataset holding an open file, loaded by spawn workers (macOS's and Windows' default): it cannot be pickled."""

import multiprocessing
import os

from torch.utils.data import DataLoader, Dataset

from zoo.data import quiet_torch


class Records(Dataset):
    def __init__(self):
        self.handle = open(os.devnull, "rb")  # an h5py/lmdb-style handle opened in __init__

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return i


def main() -> None:
    quiet_torch()
    loader = DataLoader(Records(), num_workers=1, multiprocessing_context=multiprocessing.get_context("spawn"))
    for _batch in loader:
        pass
