"""A scanned JPEG saved in CMYK meets the transform written for RGB: the per-channel Normalize refuses 4 channels.

The dataset opens each image with PIL and turns it into a CHW float tensor with numpy; it never calls
`.convert("RGB")`, since every image the author had tried was RGB. One of the catalogue's scans is CMYK: its array has
4 channels, and the normalisation by 3 means and 3 stds fails in the main process (no workers).
"""

import os
import tempfile

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset

MEAN = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)


def to_tensor(img: Image.Image) -> torch.Tensor:
    arr = np.asarray(img, dtype=np.float32) / 255.0
    return torch.from_numpy(arr).permute(2, 0, 1)


def normalize(x: torch.Tensor) -> torch.Tensor:
    return (x - MEAN) / STD


class Catalogue(Dataset):
    def __init__(self, folder: str):
        self.paths = sorted(os.path.join(folder, n) for n in os.listdir(folder))

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, i: int):
        with Image.open(self.paths[i]) as img:
            return normalize(to_tensor(img.resize((32, 32))))


def main() -> None:
    folder = tempfile.mkdtemp(prefix="jq-catalogue-")
    rng = np.random.default_rng(0)
    for k in range(12):
        pixels = rng.integers(0, 255, (40, 40, 3), dtype=np.uint8)
        img = Image.fromarray(pixels, "RGB")
        if k == 9:
            img = img.convert("CMYK")  # a print-shop scan
        img.save(os.path.join(folder, f"item{k:03d}.jpg"), quality=90)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten())
    for step, x in enumerate(DataLoader(Catalogue(folder), batch_size=4)):
        print(f"step {step} out {model(x).mean().item():.4f}", flush=True)
