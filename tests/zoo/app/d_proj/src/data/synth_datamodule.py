"""A LightningDataModule of synthetic samples: 16 features, 4 classes. With as_npy, prepare_data caches each
sample as one .npy file holding its features and its variable-length boxes (a detection-style annotation)."""

import os
from typing import Optional

import numpy as np
import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset, random_split


class NpyDataset(Dataset):
    def __init__(self, files: list, labels: np.ndarray):
        self.files = files
        self.labels = labels

    def __len__(self) -> int:
        return len(self.files)

    def __getitem__(self, i: int):
        record = np.load(self.files[i])
        features = torch.as_tensor(np.asarray(record[0], dtype=np.float32))
        return features, int(self.labels[i])


class SynthDataModule(pl.LightningDataModule):
    def __init__(
        self, data_dir: str, n_samples: int = 256, batch_size: int = 32, num_workers: int = 0, as_npy: bool = False
    ):
        super().__init__()
        self.save_hyperparameters(logger=False)
        self.data_train: Optional[Dataset] = None
        self.data_val: Optional[Dataset] = None
        self.data_test: Optional[Dataset] = None

    def _arrays(self):
        g = np.random.default_rng(0)
        x = g.normal(size=(self.hparams.n_samples, 16)).astype(np.float32)
        y = (x[:, :4].argmax(axis=1)).astype(np.int64)
        return x, y

    def prepare_data(self) -> None:
        if not self.hparams.as_npy:
            return
        x, y = self._arrays()
        os.makedirs(self.hparams.data_dir, exist_ok=True)
        g = np.random.default_rng(1)
        for i in range(len(x)):
            boxes = g.uniform(size=(int(g.integers(1, 4)), 4))
            record = np.empty(2, dtype=object)
            record[0], record[1] = x[i], boxes
            np.save(os.path.join(self.hparams.data_dir, f"{i:05d}.npy"), record)

    def setup(self, stage: Optional[str] = None) -> None:
        if self.data_train is not None:
            return
        x, y = self._arrays()
        if self.hparams.as_npy:
            files = [os.path.join(self.hparams.data_dir, f"{i:05d}.npy") for i in range(len(x))]
            full = NpyDataset(files, y)
        else:
            full = TensorDataset(torch.from_numpy(x), torch.from_numpy(y))
        n_val = n_test = len(x) // 8
        self.data_train, self.data_val, self.data_test = random_split(
            full, [len(x) - n_val - n_test, n_val, n_test], generator=torch.Generator().manual_seed(42)
        )

    def _loader(self, ds: Dataset, shuffle: bool) -> DataLoader:
        return DataLoader(ds, batch_size=self.hparams.batch_size, num_workers=self.hparams.num_workers, shuffle=shuffle)

    def train_dataloader(self) -> DataLoader:
        return self._loader(self.data_train, True)

    def val_dataloader(self) -> DataLoader:
        return self._loader(self.data_val, False)

    def test_dataloader(self) -> DataLoader:
        return self._loader(self.data_test, False)
