"""Audio clips stored as float32 .npy files, read through memory maps and cut into overlapping frames."""

import json

import numpy as np
import torch
from torch.utils.data import Dataset

HOP, WIN = 160, 400


def frames(signal: np.ndarray, sample_rate: int, duration_s: float) -> np.ndarray:
    """Overlapping windows as a view (no copy): one row per hop."""
    n = int(duration_s * sample_rate - WIN) // HOP + 1
    step = signal.strides[0]
    return np.lib.stride_tricks.as_strided(signal, shape=(n, WIN), strides=(HOP * step, step))


class Clips(Dataset):
    def __init__(self, manifest: str):
        with open(manifest) as f:
            self.items = [json.loads(line) for line in f]

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int):
        meta = self.items[i]
        signal = np.load(meta["path"], mmap_mode="r")
        fr = frames(signal, meta["sample_rate"], meta["duration_s"])
        last = np.array(fr[-8:])  # the clip's tail: the model reads the last 8 frames
        return torch.from_numpy(last).mean(0)
