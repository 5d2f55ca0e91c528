"""Segmentation masks read with PIL and one-hot encoded with `np.eye(NUM_CLASSES)[mask]`, in 2 DataLoader
workers. The first 12 masks were exported as grayscale class indices (mode "L"); the later ones come from a
new annotation tool that saves palette PNGs (mode "P"), and the loader's `.convert("L")` turns each palette
colour into its luminance, not its index."""

import os
import tempfile

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset

NUM_CLASSES = 3
PALETTE = [0, 0, 0, 128, 0, 0, 0, 128, 0]  # background, class 1 in dark red, class 2 in dark green


def write_masks(root: str, n: int) -> list[str]:
    rng = np.random.default_rng(0)
    paths = []
    for i in range(n):
        mask = np.zeros((24, 24), dtype=np.uint8)
        mask[4:12, 4:12] = rng.integers(1, NUM_CLASSES)
        mask[14:20, 10:22] = rng.integers(1, NUM_CLASSES)
        im = Image.fromarray(mask, mode="L")
        if i >= 12:
            im = Image.fromarray(mask, mode="P")
            im.putpalette(PALETTE)
        paths.append(os.path.join(root, f"mask_{i:02d}.png"))
        im.save(paths[-1])
    return paths


class Masks(Dataset):
    def __init__(self, paths: list[str]):
        self.paths = paths

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, i: int) -> torch.Tensor:
        mask = np.array(Image.open(self.paths[i]).convert("L"))
        onehot = np.eye(NUM_CLASSES, dtype=np.float32)[mask]
        return torch.from_numpy(onehot).permute(2, 0, 1)


def main() -> None:
    paths = write_masks(tempfile.mkdtemp(), 24)
    loader = DataLoader(Masks(paths), batch_size=4, num_workers=2)
    for i, batch in enumerate(loader):
        print(f"batch {i}: {tuple(batch.shape)} foreground {batch[:, 1:].mean().item():.3f}", flush=True)
