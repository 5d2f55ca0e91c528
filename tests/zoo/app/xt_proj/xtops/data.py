"""Synthetic image data and the augmentations that call the project's own C++ operators."""

import os

import numpy as np
import torch
from torch.utils.data import Dataset

from xtops import kernels


class Images(Dataset):
    """CHW float images with labels, made from a seed (stands in for the decoded shards)."""

    def __init__(self, n: int = 16, size: int = 32, classes: int = 5) -> None:
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n, 3, size, size, generator=g)
        self.labels = torch.randint(0, classes, (n,), generator=g)

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


class Mixup(Images):
    """Mixes each image with its neighbour in float16 with the compiled kernel, on the ISA the config names."""

    def __init__(self, isa: str) -> None:
        super().__init__()
        self.isa = isa

    def __getitem__(self, i):
        a = self.images[i].half()
        b = self.images[(i + 1) % len(self)].half()
        mixed = kernels.ext().mix_half(a, b, 0.7, self.isa)
        return mixed.float(), self.labels[i]


class Cropped(Images):
    """Random crops of the configured size by the compiled kernel."""

    def __init__(self, crop: int) -> None:
        super().__init__()
        self.crop = crop

    def __getitem__(self, i):
        img = kernels.ext().random_crop(self.images[i], self.crop, self.crop, i)
        return img, self.labels[i]


class Jittered(Images):
    """Brightness jitter through the registered operator torch.ops.xt.jitter."""

    def __getitem__(self, i):
        return torch.ops.xt.jitter(self.images[i], 0.2), self.labels[i]


class Logged(Images):
    """Records each sample's mean into the extension's loader statistics."""

    def __getitem__(self, i):
        img = self.images[i]
        kernels.ext().record_stat(float(img.mean()))
        return img, self.labels[i]


def write_labels(folder: str, n: int = 64, classes: int = 5) -> str:
    """The label export: int32, as the annotation tool writes it."""
    path = os.path.join(folder, "labels.bin")
    np.arange(n, dtype=np.int32).__imod__(classes).tofile(path)
    return path


def read_labels(path: str) -> torch.Tensor:
    return torch.from_numpy(np.fromfile(path, dtype=np.int64))
