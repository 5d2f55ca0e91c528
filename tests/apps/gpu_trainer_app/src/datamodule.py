"""Random digits-like vectors behind a LightningDataModule whose loaders pin and keep their workers.

pin_memory and persistent_workers are written here, not in the config: as many projects do.
"""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


class Digits(pl.LightningDataModule):
    def __init__(self, n: int, features: int, classes: int, batch_size: int, num_workers: int):
        super().__init__()
        self.n, self.features, self.classes = n, features, classes
        self.batch_size, self.num_workers = batch_size, num_workers

    def _split(self, seed: int) -> TensorDataset:
        g = torch.Generator().manual_seed(seed)
        return TensorDataset(
            torch.randn(self.n, self.features, generator=g), torch.randint(0, self.classes, (self.n,), generator=g)
        )

    def _loader(self, stage: str, seed: int) -> DataLoader:
        loader = DataLoader(
            self._split(seed),
            batch_size=self.batch_size,
            shuffle=stage == "train",
            num_workers=self.num_workers,
            pin_memory=True,
            persistent_workers=True,
        )
        print(
            f"{stage} loader: num_workers={loader.num_workers} pin_memory={loader.pin_memory} "
            f"persistent_workers={loader.persistent_workers}",
            flush=True,
        )
        return loader

    def train_dataloader(self) -> DataLoader:
        return self._loader("train", 0)

    def val_dataloader(self) -> DataLoader:
        return self._loader("val", 1)
