"""A foreground-biased random crop, written by hand: it draws crops until one holds a foreground pixel of the
mask. One mask of the set is all background (an empty annotation), so the worker that gets it loops for ever;
2 DataLoader workers, no DataLoader timeout, and the main waits for that batch."""

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

SIZE, CROP = 48, 16


class Patches(Dataset):
    def __init__(self, n: int = 16):
        rng = np.random.default_rng(0)
        self.masks = []
        for i in range(n):
            mask = np.zeros((SIZE, SIZE), dtype=np.uint8)
            if i != 6:  # image 6's annotation was saved empty
                y, x = rng.integers(0, SIZE - 8, 2)
                mask[y : y + 8, x : x + 8] = 1
            self.masks.append(mask)

    def __len__(self) -> int:
        return len(self.masks)

    def __getitem__(self, i: int) -> torch.Tensor:
        mask = self.masks[i]
        rng = np.random.default_rng(i)
        while True:
            y, x = rng.integers(0, SIZE - CROP, 2)
            crop = mask[y : y + CROP, x : x + CROP]
            if crop.any():
                return torch.from_numpy(crop.astype(np.int64))


def main() -> None:
    loader = DataLoader(Patches(), batch_size=4, num_workers=2)
    for step, batch in enumerate(loader):
        print(f"step {step}: {int(batch.sum())} foreground pixels", flush=True)
