"""The project's image logging: a grid of images, written as PNG files into the run's folder, or sent to
Weights & Biases (offline here) through Lightning's WandbLogger."""

import os
import tempfile

import numpy as np
import torch
from PIL import Image


def make_grid(images: torch.Tensor, nrow: int = 4, pad: int = 2) -> torch.Tensor:
    n, c, h, w = images.shape
    rows = (n + nrow - 1) // nrow
    grid = torch.ones(c, rows * (h + pad) + pad, nrow * (w + pad) + pad)
    for k in range(n):
        r, col = divmod(k, nrow)
        top, left = pad + r * (h + pad), pad + col * (w + pad)
        grid[:, top : top + h, left : left + w] = images[k]
    return grid


class GridLogger:
    def __init__(self, backend: str = "files"):
        self.backend = backend
        self._wandb = None

    def log(self, trainer, key: str, grid: torch.Tensor, step: int) -> None:
        if self.backend == "wandb":
            self.wandb().log_image(key=key, images=grid, step=step)
            return
        folder = os.path.join(trainer.log_dir or tempfile.gettempdir(), "images")
        os.makedirs(folder, exist_ok=True)
        pixels = (grid.clamp(0, 1).permute(1, 2, 0).numpy() * 255).astype(np.uint8)
        Image.fromarray(pixels).save(os.path.join(folder, f"{key}_{step:05d}.png"))

    def wandb(self):
        if self._wandb is None:
            from pytorch_lightning.loggers import WandbLogger

            self._wandb = WandbLogger(project="g-vision", offline=True, save_dir=tempfile.mkdtemp(prefix="g_wandb-"))
        return self._wandb
