"""Crops around annotated boxes in 2 DataLoader workers: box corners are cast to int for slicing; one annotation
row of the sheet was left blank and parsed as NaN."""

import math

import torch
from torch.utils.data import DataLoader, Dataset


class Crops(Dataset):
    def __init__(self):
        self.image = torch.rand(3, 64, 64)
        self.boxes = [(i % 40, i % 40, i % 40 + 16, i % 40 + 16) for i in range(48)]
        self.boxes[37] = (float("nan"), 12.0, math.nan, 28.0)

    def __len__(self) -> int:
        return len(self.boxes)

    def __getitem__(self, i: int) -> torch.Tensor:
        x0, y0, x1, y1 = (int(v) for v in self.boxes[i])
        return self.image[:, y0:y1, x0:x1]


def main() -> None:
    loader = DataLoader(Crops(), batch_size=8, num_workers=2)
    for step, crops in enumerate(loader):
        print(f"step {step} crops {tuple(crops.shape)}", flush=True)
