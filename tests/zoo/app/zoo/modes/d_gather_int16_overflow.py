"""Keypoint heatmap lookup: the keypoints' (row, col) are stored as int16 to save memory, and the flat index
row * width + col, computed in int16, wraps past 32767 for a 256 x 256 map; torch.gather refuses the negative
index."""

import numpy as np
import torch


def flat_index(kps: np.ndarray, width: int) -> np.ndarray:
    return kps[:, 0] * np.int16(width) + kps[:, 1]


def main() -> None:
    g = np.random.default_rng(0)
    h = w = 256
    heatmaps = torch.rand(2, h * w)
    kps = np.stack([g.integers(0, h, 17), g.integers(0, w, 17)], axis=1).astype(np.int16)
    kps[5] = (200, 31)
    idx = torch.from_numpy(flat_index(kps, w).astype(np.int64))
    print(f"{len(kps)} keypoints, flat indices from {int(idx.min())} to {int(idx.max())}")
    scores = torch.gather(heatmaps, 1, idx.unsqueeze(0).expand(2, -1))
    print("scores:", scores.mean(dim=1))
