"""Test-time augmentation in a predict DataLoader's 2 workers: each image is cropped at a random valid offset on a
stride-8 grid; one image is smaller than the crop, so its list of valid offsets is empty."""

import random

import torch
from torch.utils.data import DataLoader, Dataset

CROP = 32


class PredictSet(Dataset):
    def __init__(self) -> None:
        self.sizes = [48, 40, 64, 56, 40, 28, 48, 64]  # item 5 is a 28-pixel thumbnail

    def __len__(self) -> int:
        return len(self.sizes)

    def __getitem__(self, i: int) -> torch.Tensor:
        size = self.sizes[i]
        image = torch.rand(3, size, size)
        offsets = [o for o in range(0, size, 8) if o + CROP <= size]
        top, left = random.choice(offsets), random.choice(offsets)
        return image[:, top : top + CROP, left : left + CROP]


def main() -> None:
    loader = DataLoader(PredictSet(), batch_size=2, num_workers=2)
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * CROP * CROP, 5)).eval()
    with torch.inference_mode():
        for batch in loader:
            print("predicted", model(batch).argmax(dim=1).tolist(), flush=True)
