"""Synthetic blobs: a LightningDataModule, or plain loaders (`data.use_datamodule: false`)."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


def blobs(rows: int, seed: int) -> TensorDataset:
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 2, (rows,), generator=g)
    x = torch.randn(rows, 8, generator=g) + y[:, None].float()
    return TensorDataset(x, y)


class BlobData(pl.LightningDataModule):
    def __init__(self, rows: int, batch_size: int, seed: int):
        super().__init__()
        self.rows, self.batch_size, self.seed = rows, batch_size, seed
        self.class_weights = torch.tensor([1.0, 2.0])

    def train_dataloader(self) -> DataLoader:
        return DataLoader(blobs(self.rows, self.seed), batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self) -> DataLoader:
        return DataLoader(blobs(self.rows // 4, self.seed + 1), batch_size=self.batch_size)


def plain_loaders(rows: int, batch_size: int, seed: int) -> tuple[DataLoader, DataLoader]:
    data = BlobData(rows, batch_size, seed)
    return data.train_dataloader(), data.val_dataloader()
