"""Tokenised sentences of different lengths gathered with np.array: numpy makes an object array of lists, and
torch.from_numpy refuses it (`can't convert np.ndarray of type numpy.object_`)."""

import numpy as np
import torch

SENTENCES = [[5, 9, 2], [7, 3], [4, 8, 1, 6]]


def to_batch(rows: list) -> torch.Tensor:
    ids = np.array(rows, dtype=object)  # ragged: one object per sentence
    return torch.from_numpy(ids)


def main() -> None:
    batch = to_batch(SENTENCES)
    print(batch.shape)
