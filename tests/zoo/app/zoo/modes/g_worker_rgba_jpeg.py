"""Logo images (PNG, some with transparency) read in 2 DataLoader workers, each worker caching a JPEG
thumbnail of what it reads; a logo saved with an alpha channel (mode RGBA) cannot be written as JPEG."""

import os
import tempfile

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset


def write_logos(root: str, n: int) -> list[str]:
    rng = np.random.default_rng(0)
    paths = []
    for i in range(n):
        im = Image.fromarray(rng.integers(0, 255, (48, 48, 3), dtype=np.uint8))
        if i == 21:
            im.putalpha(200)
        paths.append(os.path.join(root, f"logo_{i:03d}.png"))
        im.save(paths[-1])
    return paths


class Logos(Dataset):
    def __init__(self, paths: list[str], cache: str):
        self.paths, self.cache = paths, cache

    def __len__(self) -> int:
        return len(self.paths)

    def thumbnail(self, i: int) -> Image.Image:
        cached = os.path.join(self.cache, f"thumb_{i:03d}.jpg")
        if os.path.exists(cached):
            return Image.open(cached)
        im = Image.open(self.paths[i])
        im.thumbnail((32, 32))
        im.save(cached, quality=90)
        return im

    def __getitem__(self, i: int) -> torch.Tensor:
        im = self.thumbnail(i)
        return torch.from_numpy(np.asarray(im.convert("RGB"), dtype=np.float32) / 255).permute(2, 0, 1)


def main() -> None:
    root = tempfile.mkdtemp(prefix="logos-")
    cache = os.path.join(root, "thumbs")
    os.makedirs(cache)
    loader = DataLoader(Logos(write_logos(root, 32), cache), batch_size=4, num_workers=2)
    for i, batch in enumerate(loader):
        print(f"batch {i}: {tuple(batch.shape)}", flush=True)
