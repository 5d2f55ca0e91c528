"""Images made in memory (16x16 RGB, PIL), their metadata in a pandas table (id, label, split), and the Dataset
that reads both. A label is the image's mean brightness; a few rows have none yet (NaN)."""

import numpy as np
import pandas as pd
import torch
from PIL import Image, ImageDraw
from torch.utils.data import Dataset


def make_images(n: int, seed: int = 0) -> list[Image.Image]:
    rng = np.random.default_rng(seed)
    images = []
    for i in range(n):
        img = Image.new("RGB", (16, 16), tuple(int(c) for c in rng.integers(0, 256, 3)))
        ImageDraw.Draw(img).rectangle([i % 8, i % 5, 8 + i % 8, 6 + i % 5], fill=(255, 255, 255))
        images.append(img)
    return images


def make_metadata(images: list[Image.Image]) -> pd.DataFrame:
    rows = []
    for i, img in enumerate(images):
        label = float(np.asarray(img, dtype=np.float32).mean() / 255.0)
        rows.append({"id": i, "label": np.nan if i % 7 == 3 else label, "split": "val" if i % 5 == 0 else "train"})
    return pd.DataFrame(rows)


def _augment(arr: np.ndarray) -> np.ndarray:
    """A horizontal flip through PIL, as the augmentation pipeline does it."""
    return np.asarray(Image.fromarray(arr).transpose(Image.Transpose.FLIP_LEFT_RIGHT))


class ImageTable(Dataset):
    def __init__(self, cfg, split: str = "train"):
        images = make_images(cfg.n)
        meta = make_metadata(images)
        meta = meta[meta["split"] == split].reset_index(drop=True)
        if cfg.drop_unlabelled:
            meta = meta.dropna(subset=["label"])
        else:
            meta = meta.fillna({"label": 0.5})
        self.meta = meta
        if cfg.cache == "normalized":
            self.arrays = [np.asarray(img, dtype=np.float32) / 255.0 for img in images]
        else:
            self.arrays = [np.asarray(img) for img in images]
        self.augment = cfg.augment

    def __len__(self) -> int:
        return len(self.meta)

    def __getitem__(self, i: int):
        row = self.meta.loc[i]
        arr = self.arrays[int(row["id"])]
        if self.augment:
            arr = _augment(arr)
        x = torch.as_tensor(np.array(arr, dtype=np.float32)).permute(2, 0, 1)
        if x.max() > 1.0:
            x = x / 255.0
        return x, torch.tensor(row["label"], dtype=torch.float32)
