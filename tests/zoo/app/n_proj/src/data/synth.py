"""The project's DataModules: synthetic regression data, split into train and validation sets."""

import numpy as np
import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset


class SynthDataModule(pl.LightningDataModule):
    def __init__(self, num_samples: int, features: int, loader: dict):
        super().__init__()
        self.num_samples, self.features, self.loader = num_samples, features, dict(loader)

    def make_set(self, seed: int) -> Dataset:
        g = torch.Generator().manual_seed(seed)
        x = torch.randn(self.num_samples, self.features, generator=g)
        return TensorDataset(x, x.sum(dim=1))

    def setup(self, stage: str) -> None:
        self.train_set, self.val_set = self.make_set(0), self.make_set(1)

    def train_dataloader(self):
        return DataLoader(self.train_set, **self.loader)

    def val_dataloader(self):
        return DataLoader(self.val_set, **self.loader)


class NumpyRows(Dataset):
    """Rows of a feature table loaded with numpy (float64, numpy's default)."""

    def __init__(self, table: np.ndarray):
        self.table = table

    def __len__(self):
        return len(self.table)

    def __getitem__(self, i):
        row = self.table[i]
        return row, row.sum()


class NumpySynthDataModule(SynthDataModule):
    def make_set(self, seed: int) -> Dataset:
        return NumpyRows(np.random.default_rng(seed).standard_normal((self.num_samples, self.features)))


class FolderDataModule(SynthDataModule):
    """Reads its samples' count from a folder of shards (here the synthetic data stands in for them)."""

    def __init__(self, data_dir: str, num_samples: int, features: int, loader: dict):
        super().__init__(num_samples, features, loader)
        self.data_dir = data_dir
