"""A strict run (`warnings.simplefilter("error")`, to catch silent broadcasting) reads its token ids from a
bytes blob with np.frombuffer, a read-only view; torch.from_numpy warns that the array is not writable, and
the filter turns that warning into the run's error."""

import warnings

import numpy as np
import torch


def load_ids(blob: bytes) -> torch.Tensor:
    return torch.from_numpy(np.frombuffer(blob, dtype=np.int64)).view(-1, 16)


def main() -> None:
    warnings.simplefilter("error")
    blob = np.arange(64 * 16, dtype=np.int64).tobytes()
    ids = load_ids(blob)
    emb = torch.nn.Embedding(64 * 16, 8)
    print(f"embedded {tuple(emb(ids).shape)}", flush=True)
