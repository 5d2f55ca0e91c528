"""A dataset's horizontal-flip augmentation returns a numpy view with a negative stride (`img[:, ::-1]`), which
torch.from_numpy refuses, in a DataLoader worker; the main re-raises it."""

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class FlippedImages(Dataset):
    def __init__(self):
        self.images = np.random.default_rng(0).random((16, 8, 8), dtype=np.float32)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        img = self.images[i]
        if i % 2 == 1:
            img = img[:, ::-1]  # flip left-right
        return torch.from_numpy(img)


def main() -> None:
    for batch in DataLoader(FlippedImages(), batch_size=4, num_workers=2):
        print(batch.mean().item())
