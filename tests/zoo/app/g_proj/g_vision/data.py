"""The datamodule: synthetic images made on the fly, or written to a folder first (`source: folder`, as a
scraped image folder would be), and a validation stream read batch by batch (`val_source: stream`)."""

import os
import tempfile

import numpy as np
import pytorch_lightning as pl
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset, IterableDataset


def random_crop(x: torch.Tensor, size: int, g: torch.Generator) -> torch.Tensor:
    h, w = x.shape[-2:]
    top = int(torch.randint(0, h - size + 1, (1,), generator=g))
    left = int(torch.randint(0, w - size + 1, (1,), generator=g))
    return x[:, top : top + size, left : left + size]


def synth(i: int, size: int, num_classes: int, seed: int) -> tuple[torch.Tensor, int]:
    g = torch.Generator().manual_seed(seed * 100003 + i)
    label = i % num_classes
    return torch.rand(3, size, size, generator=g) * 0.5 + label / num_classes * 0.5, label


class SynthImages(Dataset):
    def __init__(self, n: int, size: int, num_classes: int, crop: int = 0, seed: int = 0):
        self.n, self.size, self.num_classes, self.crop, self.seed = n, size, num_classes, crop, seed

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> tuple[torch.Tensor, int]:
        x, label = synth(i, self.size, self.num_classes, self.seed)
        if self.crop:
            x = random_crop(x, self.crop, torch.Generator().manual_seed(i))
        return x, label


def write_folder(root: str, n: int, size: int, num_classes: int) -> list[tuple[str, int]]:
    """The scraped folder: PNGs, four of which the scraper saved from a rate-limit error page."""
    items = []
    for i in range(n):
        x, label = synth(i, size, num_classes, seed=1)
        path = os.path.join(root, f"img_{i:04d}.png")
        if i % 64 == 37:
            with open(path, "w") as f:
                f.write("<html><head><title>429 Too Many Requests</title></head></html>\n")
        else:
            Image.fromarray((x.permute(1, 2, 0).numpy() * 255).astype(np.uint8)).save(path)
        items.append((path, label))
    return items


class FolderImages(Dataset):
    def __init__(self, items: list[tuple[str, int]]):
        self.items = items

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, int]:
        path, label = self.items[i]
        im = Image.open(path).convert("RGB")
        return torch.from_numpy(np.asarray(im, dtype=np.float32) / 255).permute(2, 0, 1), label


class Stream(IterableDataset):
    """Validation images as a stream (a sharded reader in the real app): no length."""

    def __init__(self, n: int, size: int, num_classes: int):
        self.n, self.size, self.num_classes = n, size, num_classes

    def __iter__(self):
        for i in range(self.n):
            yield synth(i, self.size, self.num_classes, seed=2)


class GDataModule(pl.LightningDataModule):
    def __init__(
        self,
        source: str = "synthetic",
        val_source: str = "synthetic",
        num_classes: int = 10,
        image_size: int = 32,
        crop_size: int = 0,
        n_train: int = 256,
        n_val: int = 64,
        batch_size: int = 32,
        num_workers: int = 0,
        pin_memory: bool = False,
        persistent_workers: bool = False,
    ):
        super().__init__()
        self.save_hyperparameters()

    def setup(self, stage: str) -> None:
        hp = self.hparams
        if hp.source == "folder":
            self.train_set = FolderImages(
                write_folder(tempfile.mkdtemp(prefix="g_images-"), hp.n_train, hp.image_size, hp.num_classes)
            )
        else:
            self.train_set = SynthImages(hp.n_train, hp.image_size, hp.num_classes, hp.crop_size)
        if hp.val_source == "stream":
            self.val_set = Stream(hp.n_val, hp.image_size, hp.num_classes)
        else:
            self.val_set = SynthImages(hp.n_val, hp.image_size, hp.num_classes, seed=2)

    def _loader(self, dataset: Dataset, shuffle: bool) -> DataLoader:
        hp = self.hparams
        return DataLoader(
            dataset,
            batch_size=hp.batch_size,
            shuffle=shuffle,
            num_workers=hp.num_workers,
            pin_memory=hp.pin_memory,
            persistent_workers=hp.persistent_workers,
        )

    def train_dataloader(self) -> DataLoader:
        return self._loader(self.train_set, shuffle=True)

    def val_dataloader(self) -> DataLoader:
        return self._loader(self.val_set, shuffle=False)
