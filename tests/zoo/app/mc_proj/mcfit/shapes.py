"""Synthetic shape images, written to the run's output dir as the exporter would: a feature cache and labels."""

import numpy as np

CLASSES = ["circle", "square", "triangle"]


def render(n: int, seed: int = 0) -> tuple[np.ndarray, list[str]]:
    rng = np.random.default_rng(seed)
    images = rng.random((n, 3, 32, 32), dtype=np.float32)
    names = [CLASSES[i % len(CLASSES)] for i in range(n)]
    return images, names


def export_cache(path: str, images: np.ndarray) -> None:
    """The exporter's feature cache: one flat float32 row per image (np.save, read back with mmap_mode)."""
    np.save(path, images.reshape(len(images), -1))
