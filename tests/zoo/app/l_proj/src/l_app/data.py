"""Synthetic 3x16x16 images of 4 classes, as a LightningDataModule; the loaders' settings come from the config."""

from typing import Any

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, Dataset


class ShapesDataset(Dataset):
    def __init__(self, n: int, seed: int):
        g = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, 4, (n,), generator=g)
        self.images = torch.rand(n, 3, 16, 16, generator=g) + self.labels.view(-1, 1, 1, 1) * 0.1

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        return self.images[i], self.labels[i]


def pad_collate(batch: list) -> tuple[torch.Tensor, torch.Tensor]:
    images, labels = zip(*batch)
    return torch.stack(images), torch.stack(labels)


class ShapesDataModule(pl.LightningDataModule):
    def __init__(self, batch_size: int = 16, num_workers: int = 0, loader: Any = None, n_train: int = 128):
        super().__init__()
        self.batch_size, self.num_workers, self.n_train = batch_size, num_workers, n_train
        self.loader = dict(loader or {})

    def setup(self, stage: str | None = None) -> None:
        self.train_set = ShapesDataset(self.n_train, 0)
        self.val_set = ShapesDataset(32, 1)

    def _loader(self, ds: Dataset, shuffle: bool) -> DataLoader:
        return DataLoader(ds, batch_size=self.batch_size, num_workers=self.num_workers, shuffle=shuffle, **self.loader)

    def train_dataloader(self) -> DataLoader:
        return self._loader(self.train_set, True)

    def val_dataloader(self) -> DataLoader:
        return self._loader(self.val_set, False)


class ShapesTestDataModule(ShapesDataModule):
    def test_dataloader(self) -> DataLoader:
        return self._loader(ShapesDataset(32, 2), False)
