"""Datasets and loader setup."""

import ctypes
import os

import torch
from torch.utils.data import DataLoader, Dataset


class Frames(Dataset):
    def __init__(self, n: int = 16, dim: int = 8) -> None:
        self.n, self.dim = n, dim

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> torch.Tensor:
        return torch.full((self.dim,), float(i))


def init_worker(worker_id: int) -> None:
    # split the OpenMP budget the launcher gave this job over the loader's workers
    budget = int(os.environ.get("OMP_NUM_THREADS", "2"))
    torch.set_num_threads(max(1, budget // 2))


def frame_loader(workers: int = 2) -> DataLoader:
    return DataLoader(Frames(), batch_size=4, num_workers=workers, worker_init_fn=init_worker)


class TableRows(Dataset):
    """Rows of one float table built once in the parent; items are read by address, so the table is never pickled."""

    def __init__(self, table: ctypes.Array, rows: int, dim: int) -> None:
        self.address = ctypes.addressof(table)
        self.rows, self.row_bytes = rows, dim * 4

    def __len__(self) -> int:
        return self.rows

    def __getitem__(self, i: int) -> torch.Tensor:
        raw = ctypes.string_at(self.address + i * self.row_bytes, self.row_bytes)
        return torch.frombuffer(bytearray(raw), dtype=torch.float32)


def table_loader(table: ctypes.Array, rows: int, dim: int) -> DataLoader:
    # spawn, not fork: forking after the OpenMP pool started hangs the children (pytorch/pytorch#17199)
    return DataLoader(TableRows(table, rows, dim), batch_size=4, num_workers=2, multiprocessing_context="spawn")
