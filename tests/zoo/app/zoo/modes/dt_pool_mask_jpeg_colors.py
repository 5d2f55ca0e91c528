"""Colour-coded segmentation masks converted to class maps in a multiprocessing Pool of 2 (a preprocessing
step before training); the colour table has the three exact colours, and one mask was saved as JPEG, whose
compression leaves colours between them along the edges."""

import multiprocessing as mp
import os
import tempfile

import numpy as np
from PIL import Image

COLOURS = {(0, 0, 0): 0, (255, 0, 0): 1, (0, 0, 255): 2}


def write_masks(root: str, n: int) -> list[str]:
    paths = []
    for i in range(n):
        arr = np.zeros((32, 32, 3), dtype=np.uint8)
        arr[4:14, 4:14] = (255, 0, 0)
        arr[18:28, 6:30] = (0, 0, 255)
        ext = "jpg" if i == 5 else "png"
        paths.append(os.path.join(root, f"mask_{i:02d}.{ext}"))
        Image.fromarray(arr).save(paths[-1])
    return paths


def to_classes(path: str) -> str:
    arr = np.array(Image.open(path).convert("RGB"))
    out = np.zeros(arr.shape[:2], dtype=np.uint8)
    for colour in np.unique(arr.reshape(-1, 3), axis=0):
        key = tuple(int(c) for c in colour)
        out[(arr == colour).all(axis=-1)] = COLOURS[key]
    dest = path.rsplit(".", 1)[0] + "_cls.png"
    Image.fromarray(out).save(dest)
    return dest


def main() -> None:
    paths = write_masks(tempfile.mkdtemp(), 8)
    print(f"converting {len(paths)} masks in 2 processes", flush=True)
    with mp.get_context("fork").Pool(2) as pool:
        done = pool.map(to_classes, paths, chunksize=1)
    print(f"{len(done)} class maps written", flush=True)
