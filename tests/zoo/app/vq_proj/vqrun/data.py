"""The datasets: images on disk, and feature rows."""

import io
import os

import numpy as np
import torch
from PIL import Image
from torch.utils.data import Dataset


def write_images(folder, n: int = 48, broken: int = 29) -> list[str]:
    paths = []
    rng = np.random.default_rng(0)
    for i in range(n):
        buf = io.BytesIO()
        Image.fromarray(rng.integers(0, 255, (64, 64, 3), dtype=np.uint8)).save(buf, format="JPEG", quality=90)
        data = buf.getvalue()
        if i == broken:
            data = data[: len(data) // 2]  # an upload cut short
        path = os.path.join(folder, f"img{i:04d}.jpg")
        with open(path, "wb") as f:
            f.write(data)
        paths.append(path)
    return paths


class Images(Dataset):
    def __init__(self, paths: list[str]) -> None:
        self.paths = paths

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, i: int):
        with Image.open(self.paths[i]) as img:
            arr = np.asarray(img.convert("RGB"), dtype=np.float32) / 255.0
        return torch.from_numpy(arr).permute(2, 0, 1).mean(dim=(1, 2)), i % 4


def feature_rows(n: int = 12) -> list[np.ndarray]:
    rows = [np.full(16, i, dtype=np.float32) for i in range(n)]
    rows[9] = np.zeros(15, dtype=np.float32)  # one row from an older extractor, one feature short
    return rows


def stack_features(rows: list[np.ndarray]) -> np.ndarray:
    return np.stack(rows)
