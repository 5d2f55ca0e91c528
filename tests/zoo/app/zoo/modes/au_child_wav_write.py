"""Augmented copies of the training clips written by a multiprocessing Pool (2 forked children); the writer sets
the rate and sample width of each output WAV but not its channel count."""

import os
import tempfile
import wave
from multiprocessing import Pool

import numpy as np

SR = 16000
OUT = tempfile.mkdtemp(prefix="au_aug_")


def write_augmented(i: int) -> str:
    rng = np.random.default_rng(i)
    x = rng.standard_normal(SR // 4) * 0.1 * rng.uniform(0.5, 1.5)
    path = os.path.join(OUT, f"aug_{i:03d}.wav")
    with wave.open(path, "wb") as w:
        w.setframerate(SR)
        w.setsampwidth(2)
        w.writeframes((x * 32767).astype(np.int16).tobytes())
    return path


def main() -> None:
    print("writing 8 augmented clips in 2 processes", flush=True)
    with Pool(2) as pool:
        paths = pool.map(write_augmented, range(8))
    print(f"{len(paths)} clips written")
