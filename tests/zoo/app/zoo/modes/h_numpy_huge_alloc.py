"""A feature cache preallocated from a sample count read as int64 from a header of another version: numpy asks for
terabytes and raises MemoryError (numpy's _ArrayMemoryError: Unable to allocate ...)."""

import numpy as np


def preallocate(num_samples: int, dim: int) -> np.ndarray:
    return np.zeros((num_samples, dim), dtype=np.float32)


def main() -> None:
    header = np.array([1 << 40], dtype=np.int64)  # the count field of a newer file format
    cache = preallocate(int(header[0]), 512)
    print(cache.shape)
