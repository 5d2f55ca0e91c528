"""Hand-written paired transforms (the project has no torchvision): image and mask together."""

import json

import numpy as np
import torch
from PIL import Image, ImageOps


class Compose:
    def __init__(self, *ts):
        self.ts = ts

    def __call__(self, img, mask):
        for t in self.ts:
            img, mask = t(img, mask)
        return img, mask


class AutoContrast:
    def __call__(self, img: Image.Image, mask: Image.Image):
        return ImageOps.autocontrast(img, cutoff=1), mask


class RandomCrop:
    def __init__(self, size: int):
        self.size = size

    def __call__(self, img: Image.Image, mask: Image.Image):
        w, h = img.size
        top = np.random.randint(0, h - self.size + 1)
        left = np.random.randint(0, w - self.size + 1)
        box = (left, top, left + self.size, top + self.size)
        return img.crop(box), mask.crop(box)


class Normalize:
    """Per-channel statistics from the stats file the dataset's stats script wrote."""

    def __init__(self, stats_path: str):
        with open(stats_path) as f:
            stats = json.load(f)
        self.mean = torch.tensor(stats["mean"]).view(-1, 1, 1)
        self.std = torch.tensor(stats["std"]).view(-1, 1, 1)

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        return (x - self.mean) / self.std
