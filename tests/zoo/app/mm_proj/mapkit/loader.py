"""A Dataset over a read-only memory-mapped shard, with feature dropout as augmentation."""

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

from mapkit.shards import open_shard


class MaskedShard(Dataset):
    def __init__(self, path: str, drop_cols=(0, 3, 7)):
        self.path = path
        self.drop_cols = list(drop_cols)
        self.rows = None

    def __len__(self):
        return 64

    def __getitem__(self, i):
        if self.rows is None:  # opened lazily, once per worker
            self.rows = open_shard(self.path)
        row = self.rows[i]
        row[self.drop_cols] = 0.0  # feature dropout, in place
        return torch.from_numpy(np.array(row))


def make_loader(path: str) -> DataLoader:
    return DataLoader(MaskedShard(path), batch_size=8, num_workers=2)
