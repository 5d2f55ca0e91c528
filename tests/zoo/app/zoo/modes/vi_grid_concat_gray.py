"""A preview strip of the dataset's first images, read with PIL and put side by side with np.concatenate
before training; one photo of the folder is grayscale (mode "L"), so its array has no channel axis."""

import os
import tempfile

import numpy as np
from PIL import Image


def write_images(root: str, n: int = 8) -> list[str]:
    rng = np.random.default_rng(0)
    paths = []
    for i in range(n):
        im = Image.fromarray(rng.integers(0, 255, (32, 32, 3), dtype=np.uint8))
        if i == 5:
            im = im.convert("L")
        paths.append(os.path.join(root, f"img_{i:02d}.png"))
        im.save(paths[-1])
    return paths


def preview_strip(paths: list[str]) -> np.ndarray:
    arrays = [np.array(Image.open(p)) for p in paths]
    return np.concatenate(arrays, axis=1)


def main() -> None:
    with tempfile.TemporaryDirectory() as root:
        paths = write_images(root)
        print(f"{len(paths)} images; writing the preview strip", flush=True)
        strip = preview_strip(paths)
        Image.fromarray(strip).save(os.path.join(root, "preview.png"))
