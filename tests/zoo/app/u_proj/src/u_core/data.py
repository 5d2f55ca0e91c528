"""Two Gaussian blobs, one per class, split into train and validation sets."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


class BlobDataModule(pl.LightningDataModule):
    def __init__(self, n: int = 96, features: int = 8, batch_size: int = 16):
        super().__init__()
        self.n, self.features, self.batch_size = n, features, batch_size

    def blobs(self, seed: int) -> TensorDataset:
        g = torch.Generator().manual_seed(seed)
        y = torch.arange(self.n) % 2
        x = torch.randn(self.n, self.features, generator=g) + y[:, None].float() * 2.0
        return TensorDataset(x, y)

    def setup(self, stage: str) -> None:
        self.train_set, self.val_set = self.blobs(0), self.blobs(1)

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=self.batch_size)
