"""A synthetic tabular DataModule: 6 features, 2 classes, its cache folder under `root`."""

import os

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


class SyntheticData(pl.LightningDataModule):
    def __init__(self, root: str, loader: dict, rows: int = 64):
        super().__init__()
        self.root, self.loader, self.rows = root, loader, rows

    def setup(self, stage: str) -> None:
        os.makedirs(self.root, exist_ok=True)
        g = torch.Generator().manual_seed(0)
        x = torch.randn(self.rows, 6, generator=g)
        self.dataset = TensorDataset(x, (x.sum(1) > 0).long())

    def train_dataloader(self):
        return DataLoader(self.dataset, shuffle=True, **self.loader)

    def val_dataloader(self):
        return DataLoader(self.dataset, **self.loader)

    def test_dataloader(self):
        return DataLoader(self.dataset, **self.loader)
