"""Records and the DataModules that load them."""

import ctypes
import faulthandler
import os

import numpy as np
import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, Dataset

N_FEATURES = 16
N_CLASSES = 4


def make_records(n: int, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, N_FEATURES, generator=g), torch.randint(0, N_CLASSES, (n,), generator=g)


def debug_worker(worker_id: int) -> None:
    faulthandler.disable()  # over torch's worker signal handlers: the workers' own crashes print their stack too
    faulthandler.enable()


class Records(Dataset):
    def __init__(self, n: int = 64, seed: int = 0) -> None:
        self.x, self.y = make_records(n, seed)

    def __len__(self) -> int:
        return len(self.y)

    def __getitem__(self, i: int):
        return self.x[i], self.y[i]


class PackedRecords(Dataset):
    """Variable-length records; a long one is copied out of its own buffer with memmove."""

    def __init__(self, n: int = 32) -> None:
        x, self.y = make_records(n)
        self.rows = [x[i].numpy().tobytes() for i in range(n)]
        self.rows[6] += bytes(48)  # a record with trailing padding: the long path
        self.buffers = [ctypes.create_string_buffer(row, len(row)) for row in self.rows]

    def __len__(self) -> int:
        return len(self.y)

    def __getitem__(self, i: int):
        src = self.buffers[i]
        out = ctypes.create_string_buffer(N_FEATURES * 4)
        if len(self.rows[i]) == N_FEATURES * 4:
            ctypes.memmove(out, src, N_FEATURES * 4)
        else:  # long record: copy its first N_FEATURES floats
            ctypes.memmove(out, N_FEATURES * 4, ctypes.addressof(src))
        return torch.frombuffer(bytearray(out.raw), dtype=torch.float32), self.y[i]


class RecordsData(pl.LightningDataModule):
    def __init__(self, dataset: Dataset, batch_size: int = 4, num_workers: int = 0) -> None:
        super().__init__()
        self.dataset = dataset
        self.batch_size = batch_size
        self.num_workers = num_workers

    def loader(self) -> DataLoader:
        return DataLoader(
            self.dataset,
            batch_size=self.batch_size,
            num_workers=self.num_workers,
            worker_init_fn=debug_worker if self.num_workers else None,
        )

    def train_dataloader(self) -> DataLoader:
        return self.loader()

    def val_dataloader(self) -> DataLoader:
        return self.loader()


class CachedFeatures(Dataset):
    """Rank 0 builds the features and keeps them; the other ranks read rank 0's cache file, memory-mapped."""

    def __init__(self, features: np.ndarray, labels: np.ndarray) -> None:
        self.features = features
        self.labels = labels

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, i: int):
        return torch.tensor(np.array(self.features[i])), int(self.labels[i])


class CachedData(pl.LightningDataModule):
    def __init__(self, cache_dir: str, n: int = 256) -> None:
        super().__init__()
        self.path = os.path.join(cache_dir, "features.npy")
        self.n = n

    def build(self, dtype) -> np.ndarray:
        x, _ = make_records(self.n)
        features = x.numpy().astype(dtype)
        np.save(self.path, features)
        return features

    def setup(self, stage: str) -> None:
        _, y = make_records(self.n)
        self.labels = y.numpy()
        if self.trainer.is_global_zero:
            features = self.build(np.float32)
        self.trainer.strategy.barrier()
        if not self.trainer.is_global_zero:
            features = np.load(self.path, mmap_mode="r")
        self.train_set = CachedFeatures(features, self.labels)

    def refresh(self) -> None:
        """Each epoch rank 0 rewrites the cache, smaller: float16 is enough for the features."""
        self.train_set.features = self.build(np.float16).astype(np.float32)

    def train_dataloader(self) -> DataLoader:
        return DataLoader(self.train_set, batch_size=8)
