"""Per-speaker embeddings cached as .npy files are stacked into one matrix for a nearest-neighbour index; one
speaker's file was written by an older encoder with 192 dimensions instead of 256."""

import os
import tempfile

import numpy as np


def write_cache(root: str) -> list[str]:
    rng = np.random.default_rng(0)
    paths = []
    for i in range(12):
        dim = 192 if i == 8 else 256
        paths.append(os.path.join(root, f"spk_{i:02d}.npy"))
        np.save(paths[-1], rng.standard_normal(dim).astype(np.float32))
    return paths


def build_index(paths: list[str]) -> np.ndarray:
    vectors = [np.load(p) for p in paths]
    index = np.stack(vectors)
    return index / np.linalg.norm(index, axis=1, keepdims=True)


def main() -> None:
    paths = write_cache(tempfile.mkdtemp())
    print(f"{len(paths)} speakers cached", flush=True)
    index = build_index(paths)
    print(f"index {index.shape}", flush=True)
