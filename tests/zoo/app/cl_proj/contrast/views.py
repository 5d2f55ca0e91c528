"""A synthetic image set and the two-view augmentation, run in the DataLoader's workers."""

import random

import numpy as np
import torch
from PIL import Image
from torch.utils.data import Dataset


def to_tensor(im: Image.Image) -> torch.Tensor:
    return torch.from_numpy(np.asarray(im, dtype=np.float32) / 255.0).permute(2, 0, 1).contiguous()


def random_crop(im: Image.Image, rng: random.Random) -> Image.Image:
    w, h = im.size
    s = rng.randint(20, 32)
    x, y = rng.randint(0, w - s), rng.randint(0, h - s)
    return im.crop((x, y, x + s, y + s)).resize((32, 32))


def random_gray(x: torch.Tensor, p: float, rng: random.Random) -> torch.Tensor:
    if rng.random() < p:
        return x.mean(0, keepdim=True).expand(3, -1, -1)
    return x


def jitter(x: torch.Tensor, rng: random.Random) -> torch.Tensor:
    return x.mul_(rng.uniform(0.6, 1.4)).clamp_(0, 1)


def hflip(x: torch.Tensor, rng: random.Random) -> torch.Tensor:
    return torch.flip(x, dims=[-1]) if rng.random() < 0.5 else x


class TwoViews(Dataset):
    """Each item: the image's two augmented views and its id in the full image set."""

    def __init__(self, n: int, pipeline: str, start: int = 0, views: int = 2):
        gen = np.random.default_rng(0)
        self.images = [Image.fromarray(gen.integers(0, 255, (40, 40, 3), dtype=np.uint8)) for _ in range(n)]
        self.ids = list(range(start, n))
        self.pipeline = pipeline
        self.views = views

    def __len__(self) -> int:
        return len(self.ids)

    def view(self, im: Image.Image, rng: random.Random, k: int):
        v = random_crop(im, rng)
        if self.pipeline == "second_view_no_tensor" and k == 1:
            return hflip(v, rng)
        x = to_tensor(v)
        if self.pipeline == "gray_then_jitter":
            x = random_gray(x, 0.3, rng)
            x = jitter(x, rng)
        return hflip(x, rng)

    def __getitem__(self, i: int):
        rng = random.Random(i)
        gid = self.ids[i]
        views = [self.view(self.images[gid], rng, k) for k in range(self.views)]
        return (*views, gid)


def first_view_collate(batch):
    """Stacks the first view only (written for the linear-probe loader, reused here)."""
    return torch.stack([item[0] for item in batch])
