"""A dataset keeps its lookup table, normalised by the program's C code, as a ctypes POINTER(c_float) attribute; the
DataLoader's 2 workers are started with spawn, which pickles the dataset: `ValueError: ctypes objects containing
pointers cannot be pickled`."""

import ctypes

import torch
from torch.utils.data import DataLoader, Dataset

from zoo.nc_native import build


class TableDataset(Dataset):
    def __init__(self, lib_path: str, n: int) -> None:
        lib = ctypes.CDLL(lib_path)
        lib.nc_normalize.argtypes = [ctypes.c_void_p, ctypes.c_long, ctypes.c_float, ctypes.c_float]
        table = (ctypes.c_float * n)(*range(n))
        lib.nc_normalize(table, n, 0.0, float(n))
        self.row = ctypes.cast(table, ctypes.POINTER(ctypes.c_float))  # keeps the table alive
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> torch.Tensor:
        return torch.tensor([self.row[i]])


def main() -> None:
    torch.set_num_threads(1)
    ds = TableDataset(build(), 16)
    loader = DataLoader(ds, batch_size=4, num_workers=2, multiprocessing_context="spawn")
    total = 0.0
    for batch in loader:
        total += float(batch.sum())
    print(f"total {total}", flush=True)
