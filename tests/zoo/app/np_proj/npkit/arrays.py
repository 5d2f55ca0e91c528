"""Rows of numpy arrays into one float32 batch, without copying (written for numpy 1.x)."""

import numpy as np


def stack_rows(rows: list) -> np.ndarray:
    # numpy 1.x: copy=False meant "copy only if needed"; numpy 2 makes it "never copy"
    return np.array(rows, dtype=np.float32, copy=False)


def standardise(batch: np.ndarray) -> np.ndarray:
    return (batch - batch.mean(axis=0)) / (batch.std(axis=0) + 1e-6)
