"""The token dataset each rank reads with a DataLoader worker."""

import torch
from torch.utils.data import DataLoader, Dataset


class Records(Dataset):
    def __init__(self, rows: list[dict]):
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> torch.Tensor:
        row = self.rows[i]
        return torch.tensor(row["tokens"], dtype=torch.float32)


def loader(rows: list[dict]) -> DataLoader:
    return DataLoader(Records(rows), batch_size=2, num_workers=1)
