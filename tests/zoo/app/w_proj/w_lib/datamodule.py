"""The project's datamodules."""

from pathlib import Path

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset

from w_lib.registry import register


@register
class RandomDataModule(pl.LightningDataModule):
    def __init__(self, n: int, in_dim: int, n_classes: int, batch_size: int = 16) -> None:
        super().__init__()
        self.n, self.in_dim, self.n_classes, self.batch_size = n, in_dim, n_classes, batch_size

    def setup(self, stage: str) -> None:
        g = torch.Generator().manual_seed(0)
        x = torch.randn(self.n, self.in_dim, generator=g)
        y = torch.randint(0, self.n_classes, (self.n,), generator=g)
        self.dataset = TensorDataset(x, y)

    def train_dataloader(self) -> DataLoader:
        return DataLoader(self.dataset, batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self) -> DataLoader:
        return DataLoader(self.dataset, batch_size=self.batch_size)

    def test_dataloader(self) -> DataLoader:
        return DataLoader(self.dataset, batch_size=self.batch_size)


@register
class CsvDataModule(RandomDataModule):
    """Rows of a CSV file (features, then the label); prepare_data checks the file is there."""

    def __init__(self, path: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.path = Path(path)

    def prepare_data(self) -> None:
        if not self.path.exists():
            raise FileNotFoundError(f"{self.path}: download it first (see the README of the data)")
