"""Image transforms with their own randomness (PIL in, tensor out)."""

import random

import numpy as np
import torch
from PIL import Image, ImageFilter


class RandomBlur:
    def __init__(self, p: float, radius: tuple[float, float]):
        self.p = p
        self.radius = radius
        self.rng = random.Random(0)

    def __call__(self, img: Image.Image) -> Image.Image:
        if self.rng.random() < self.p:
            img = img.filter(ImageFilter.GaussianBlur(self.rng.uniform(*self.radius)))
        return img


class ToTensor:
    def __call__(self, img: Image.Image) -> torch.Tensor:
        x = torch.from_numpy(np.asarray(img.convert("RGB"), dtype=np.float32) / 255.0)
        return x.permute(2, 0, 1)


class Compose:
    def __init__(self, steps: list):
        self.steps = steps

    def __call__(self, x):
        for step in self.steps:
            x = step(x)
        return x
