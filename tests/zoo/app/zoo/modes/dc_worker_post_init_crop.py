"""Each sample's random-crop settings are a small dataclass whose __post_init__ refuses a crop larger than the
image; the dataset mixes 32x32 images with a few 20x20 ones, and the crop is 24, in 2 DataLoader workers."""

from dataclasses import dataclass

import torch
from torch.utils.data import DataLoader, Dataset


@dataclass
class CropConfig:
    size: int
    height: int
    width: int

    def __post_init__(self) -> None:
        if self.size > min(self.height, self.width):
            raise ValueError(f"crop size {self.size} exceeds image {self.height}x{self.width}")


class Images(Dataset):
    def __init__(self) -> None:
        self.sides = [32] * 40 + [20] * 4 + [32] * 20

    def __len__(self) -> int:
        return len(self.sides)

    def __getitem__(self, i: int) -> torch.Tensor:
        side = self.sides[i]
        crop = CropConfig(size=24, height=side, width=side)
        img = torch.rand(3, side, side)
        return img[:, : crop.size, : crop.size]


def main() -> None:
    loader = DataLoader(Images(), batch_size=8, num_workers=2)
    for step, batch in enumerate(loader):
        print(f"step {step} batch {tuple(batch.shape)}", flush=True)
