"""Per-epoch sample images: the first images of a batch, upscaled and saved as PNG."""

from pathlib import Path

import numpy as np
import torch
from PIL import Image


def to_pil(x: torch.Tensor) -> Image.Image:
    """One image in [0, 1], channels first (as the model sees it), to a PIL image."""
    arr = (x.clamp(0, 1) * 255).to(torch.uint8).permute(1, 2, 0).numpy()
    return Image.fromarray(np.ascontiguousarray(arr))


def save_samples(batch: torch.Tensor, out_dir: Path, epoch: int, size: int = 64) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    tiles = [to_pil(x).resize((size, size), Image.ANTIALIAS) for x in batch[:4]]
    grid = Image.new("RGB", (size * len(tiles), size))
    for i, tile in enumerate(tiles):
        grid.paste(tile, (i * size, 0))
    path = out_dir / f"epoch{epoch}.png"
    grid.save(path)
    return path
