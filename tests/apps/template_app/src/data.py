"""A random classification set, the same on every run, behind a LightningDataModule."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


class TinyDataModule(pl.LightningDataModule):
    def __init__(self, n: int, features: int, classes: int, seed: int, loader: dict):
        super().__init__()
        self.n, self.features, self.classes, self.seed = n, features, classes, seed
        self.loader = dict(loader)

    def _split(self, offset: int) -> TensorDataset:
        g = torch.Generator().manual_seed(self.seed + offset)
        x = torch.randn(self.n, self.features, generator=g)
        y = torch.randint(0, self.classes, (self.n,), generator=g)
        return TensorDataset(x, y)

    def _loader(self, offset: int, shuffle: bool) -> DataLoader:
        return DataLoader(self._split(offset), shuffle=shuffle, **self.loader)

    def train_dataloader(self) -> DataLoader:
        return self._loader(0, shuffle=True)

    def val_dataloader(self) -> DataLoader:
        return self._loader(1, shuffle=False)

    def test_dataloader(self) -> DataLoader:
        return self._loader(2, shuffle=False)
