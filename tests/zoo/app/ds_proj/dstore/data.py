"""The program's Datasets: LMDB records and PNG images."""

import lmdb
import numpy as np
import torch
from PIL import Image
from torch.utils.data import Dataset

from dstore.stores import key, read_record


class LmdbRecords(Dataset):
    """Records of an LMDB folder; the environment is opened lazily, once per process (after fork)."""

    def __init__(self, path: str, n: int, readonly=False, max_readers: int = 126, hold_txn=False, count_seen=False):
        self.path, self.n, self.readonly, self.max_readers = path, n, readonly, max_readers
        self.hold_txn, self.count_seen = hold_txn, count_seen
        self.env = None
        self.txn = None

    def __len__(self) -> int:
        return self.n

    def _open(self) -> None:
        if self.readonly:
            self.env = lmdb.open(self.path, readonly=True, lock=False)
        else:
            self.env = lmdb.open(self.path, max_readers=self.max_readers, map_size=1 << 26)
        if self.hold_txn:
            # one read transaction for the worker's life: begin() per record was slow on the cluster
            self.txn = self.env.begin()

    def __getitem__(self, i: int):
        if self.env is None:
            self._open()
        if self.txn is not None:
            x = read_record(self.txn, i)
        else:
            with self.env.begin() as txn:
                x = read_record(txn, i)
        if self.count_seen:
            with self.env.begin(write=True) as wtxn:
                wtxn.put(b"seen-" + key(i), b"1")
        return torch.from_numpy(x[:64]), i % 4


class PngImages(Dataset):
    def __init__(self, paths: list[str]):
        self.paths = paths

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, i: int):
        img = Image.open(self.paths[i]).convert("RGB")
        x = torch.from_numpy(np.asarray(img, dtype=np.float32) / 255.0).permute(2, 0, 1)
        return x, i % 4
