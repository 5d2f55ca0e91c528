"""scipy.ndimage.zoom refuses zoom factors for two axes on an image with three (H, W, C).

The resize step was written for grayscale tiles; the colour tiles added later are (H, W, 3), and `zoom` is given
one factor per spatial axis only.
"""

import numpy as np
import torch
from scipy import ndimage


def resize(tile: np.ndarray, size: int) -> np.ndarray:
    factors = (size / tile.shape[0], size / tile.shape[1])
    return ndimage.zoom(tile, factors, order=1)


def main() -> None:
    rng = np.random.default_rng(0)
    tiles = [rng.random((24, 24)) for _ in range(4)] + [rng.random((24, 24, 3)) for _ in range(4)]
    model = torch.nn.Linear(32 * 32, 1)
    for i, tile in enumerate(tiles):
        x = torch.from_numpy(resize(tile, 32).astype(np.float32)).reshape(1, -1)
        loss = model(x).pow(2).mean()
        loss.backward()
        print(f"tile {i} loss {loss.item():.4f}", flush=True)
