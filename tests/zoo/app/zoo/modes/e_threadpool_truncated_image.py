"""Thumbnails decoded in a ThreadPoolExecutor: one PNG was cut short by an interrupted download; PIL's load() in
the worker thread raises `OSError: image file is truncated`, and future.result() re-raises it in the main thread."""

import io
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from PIL import Image


def write_images(folder: str) -> list:
    paths = []
    rng = np.random.default_rng(0)
    for i in range(6):
        path = os.path.join(folder, f"img_{i}.png")
        buf = io.BytesIO()
        Image.fromarray(rng.integers(0, 255, (64, 64, 3), dtype=np.uint8)).save(buf, format="PNG")
        data = buf.getvalue()
        with open(path, "wb") as f:
            f.write(data[: len(data) * 2 // 3] if i == 4 else data)
        paths.append(path)
    return paths


def thumbnail(path: str) -> np.ndarray:
    with Image.open(path) as im:
        im = im.convert("RGB")
        im.thumbnail((16, 16))
        return np.asarray(im)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        paths = write_images(folder)
        with ThreadPoolExecutor(max_workers=3) as pool:
            futures = [pool.submit(thumbnail, p) for p in paths]
            thumbs = [f.result() for f in futures]
    print(f"{len(thumbs)} thumbnails, mean {np.mean(thumbs):.1f}")
