"""An embedding cache mapped with torch.from_file; before the epoch the program "refreshes" the cache in place,
opening it with 'wb' (truncated to 0 bytes; the new rows are written after the epoch). The mapped tensor's
pages past the file's end: a real SIGBUS in torch's copy, in the main process."""

import os
import tempfile

import numpy as np
import torch

ROWS, DIM = 256, 1024


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(), "emb.f32")
    np.ones((ROWS, DIM), dtype=np.float32).tofile(path)
    table = torch.from_file(path, shared=False, size=ROWS * DIM, dtype=torch.float32).view(ROWS, DIM)
    print(f"mapped a {tuple(table.shape)} embedding cache", flush=True)
    with open(path, "wb") as cache:
        for start in range(0, ROWS, 32):
            batch = table[start : start + 32].clone()
            cache.write((batch * 0.5).numpy().tobytes())
