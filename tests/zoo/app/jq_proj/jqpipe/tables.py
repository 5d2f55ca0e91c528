"""Labelled feature tables, one CSV part per worker index, read with pandas."""

import pandas as pd
import torch
from torch.utils.data import Dataset

DTYPES = {"id": "int64", "label": "int64", "f0": "float32", "f1": "float32", "f2": "float32"}


class TableParts(Dataset):
    def __init__(self, parts: list[str], rows_per_part: int):
        self.parts = parts
        self.rows_per_part = rows_per_part
        self._cache = {}

    def __len__(self) -> int:
        return len(self.parts) * self.rows_per_part

    def part(self, k: int) -> pd.DataFrame:
        if k not in self._cache:
            self._cache[k] = pd.read_csv(self.parts[k], dtype=DTYPES)
        return self._cache[k]

    def __getitem__(self, i: int):
        row = self.part(i // self.rows_per_part).iloc[i % self.rows_per_part]
        x = torch.tensor([row.f0, row.f1, row.f2], dtype=torch.float32)
        return x, int(row.label)
