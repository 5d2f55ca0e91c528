"""The project's LightningDataModule: two Gaussian blobs of 4 features, or the blobs a previous run cached."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


class BlobData(pl.LightningDataModule):
    def __init__(self, rows: int, batch_size: int, source: str = "synthetic"):
        super().__init__()
        self.rows, self.batch_size, self.source = rows, batch_size, source

    def setup(self, stage: str) -> None:
        if self.source == "synthetic":
            self.train_set, self.val_set = self.blobs(seed=0), self.blobs(seed=1)
        elif self.source == "cached" and stage == "train":
            self.train_set, self.val_set = torch.load("cache/blobs.pt")

    def blobs(self, seed: int) -> TensorDataset:
        g = torch.Generator().manual_seed(seed)
        y = torch.randint(0, 2, (self.rows,), generator=g)
        x = torch.randn(self.rows, 4, generator=g) + y[:, None] * 2.0
        return TensorDataset(x, y)

    def train_dataloader(self) -> DataLoader:
        return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self) -> DataLoader:
        return DataLoader(self.val_set, batch_size=self.batch_size)
