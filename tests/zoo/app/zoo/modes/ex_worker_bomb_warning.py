"""The CI preset treats warnings as errors (`warnings.simplefilter("error")`, to keep the log clean); scanned
pages read with PIL in 2 DataLoader workers (forked, so they keep the filter); one scan is 10000x9500 pixels,
over PIL's decompression-bomb warning limit (89,478,485) but under its error limit: its warning becomes the
worker's exception."""

import os
import tempfile
import warnings

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset

ROOT = os.path.join(tempfile.gettempdir(), "ex_worker_bomb_warning")


def make_scans() -> list:
    os.makedirs(ROOT, exist_ok=True)
    paths = []
    for i in range(8):
        path = os.path.join(ROOT, f"page{i}.png")
        if not os.path.exists(path):
            size = (10000, 9500) if i == 5 else (256, 256)
            Image.new("1", size, color=1).save(path)
        paths.append(path)
    return paths


class Scans(Dataset):
    def __init__(self, paths: list) -> None:
        self.paths = paths

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, i: int):
        with Image.open(self.paths[i]) as im:
            im.draft("L", (64, 64))
            page = im.convert("L").resize((64, 64))
        return torch.from_numpy(np.asarray(page, dtype=np.float32) / 255.0)[None]


def main() -> None:
    warnings.simplefilter("error")
    loader = DataLoader(Scans(make_scans()), batch_size=2, num_workers=2)
    for i, pages in enumerate(loader):
        print(f"batch {i}: {tuple(pages.shape)} mean {pages.mean().item():.3f}", flush=True)
    print("done", flush=True)
