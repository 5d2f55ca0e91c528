"""A tabular LightningDataModule: synthetic rows, or a CSV file (6 features and a label) when csv_path is set."""

from typing import Optional

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


class TabularData(pl.LightningDataModule):
    def __init__(self, rows: int, batch_size: int, csv_path: Optional[str] = None):
        super().__init__()
        self.rows, self.batch_size, self.csv_path = rows, batch_size, csv_path

    def setup(self, stage: str) -> None:
        if self.csv_path is None:
            g = torch.Generator().manual_seed(0)
            x = torch.randn(self.rows, 6, generator=g)
            self.dataset = TensorDataset(x, (x.sum(1) > 0).long())
        else:
            self.dataset = self.read_csv(self.csv_path)

    @staticmethod
    def read_csv(path: str) -> TensorDataset:
        with open(path) as f:
            lines = f.read().splitlines()[1:]
        table = torch.tensor([[float(v) for v in line.split(",")] for line in lines])
        return TensorDataset(table[:, :6], table[:, 6].long())

    def train_dataloader(self):
        return DataLoader(self.dataset, batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.dataset, batch_size=self.batch_size)
