"""The LightningDataModule: datasets and the DataLoaders built from `data.loader.*`."""

import os

import numpy as np
import pytorch_lightning as pl
import torch
from omegaconf import DictConfig
from torch.utils.data import DataLoader, Dataset

from mcfit import shapes

PAD = torch.iinfo(torch.int64).min  # the exporter's padding sentinel for unused offsets


class Shapes(Dataset):
    def __init__(self, images: np.ndarray, names: list[str], classes: dict, augment: DictConfig | None = None):
        self.images, self.names, self.classes, self.augment = images, names, classes, augment

    def __len__(self) -> int:
        return len(self.names)

    def __getitem__(self, i: int):
        image = torch.from_numpy(np.array(self.images[i])).reshape(3, 32, 32)
        if self.augment is not None:
            image = image + self.augment.scale * torch.randn_like(image)
        return image, self.classes[self.names[i]]


class CachedShapes(Dataset):
    """Reads the exporter's cache through a memory map, in the order of the hashed index."""

    def __init__(self, path: str, n: int, classes: dict):
        self.rows = np.load(path, mmap_mode="r")
        self.n, self.classes = n, classes

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        row = (i * 97) % len(self.rows)
        image = torch.from_numpy(np.array(self.rows[row])).reshape(3, 32, 32)
        return image, row % 3


class Sequences(Dataset):
    """One shard of shapes with their contour offsets (padded with the sentinel); odd shards hold the mirrored
    (right-to-left) contours, read in direction -1."""

    def __init__(self, images: np.ndarray, shard: int):
        self.images, self.direction = images, -1 if shard % 2 else 1

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int):
        offsets = torch.full((8,), PAD, dtype=torch.int64)
        offsets[:5] = torch.arange(5) * (i + 1)
        direction = torch.tensor(self.direction, dtype=torch.int64)
        return torch.from_numpy(self.images[i]), offsets, direction, i % 3


class ShapesDataModule(pl.LightningDataModule):
    def __init__(
        self,
        workdir: str,
        size: int,
        loader: DictConfig,
        augment: DictConfig,
        kind: str = "images",
        val_extra: list | None = None,
        vocab_on_rank_zero: bool = False,
        **_,
    ):
        super().__init__()
        self.workdir, self.size, self.loader, self.augment, self.kind = workdir, size, loader, augment, kind
        self.val_extra = list(val_extra or [])
        self.vocab_on_rank_zero = vocab_on_rank_zero

    def cache_file(self, split: str) -> str:
        return os.path.join(self.workdir, f"{self.kind}-features.npy")  # one cache file per dataset kind

    def setup(self, stage: str) -> None:
        images, names = shapes.render(self.size)
        if self.vocab_on_rank_zero:
            # the vocabulary is "downloaded" once, by the first process
            if self.trainer.is_global_zero:
                self.classes = {name: k for k, name in enumerate(sorted(set(names)))}
        else:
            self.classes = {name: k for k, name in enumerate(sorted(set(names)))}
        if self.kind == "cached":
            shapes.export_cache(self.cache_file("train"), images)
            self.train_set = CachedShapes(self.cache_file("train"), self.size, self.classes)
        elif self.kind == "sequences":
            shard, shards = self.trainer.global_rank, self.trainer.world_size  # each process reads its own shard
            self.train_set = Sequences(images[shard::shards], shard)
        else:
            self.train_set = Shapes(images, names, self.classes, self.augment if self.augment.enabled else None)
        val_images, val_names = shapes.render(8, seed=1)
        for k, name in enumerate(self.val_extra):
            val_names[k + 1] = name
        if self.kind == "cached":
            shapes.export_cache(self.cache_file("val"), val_images)
            self.val_set = CachedShapes(self.cache_file("val"), len(val_images), self.classes)
        else:
            self.val_set = Shapes(val_images, val_names, self.classes)

    def train_dataloader(self) -> DataLoader:
        n_classes = len(self.classes)
        assert n_classes > 1, "one class"
        return DataLoader(self.train_set, **self.loader.train)

    def val_dataloader(self) -> DataLoader:
        return DataLoader(self.val_set, **self.loader.val)
