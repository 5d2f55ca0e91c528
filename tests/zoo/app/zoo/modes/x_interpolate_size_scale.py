"""A resize augmentation that was given a target size and kept the old scale factor beside it:
F.interpolate refuses both at once."""

import torch
import torch.nn.functional as F


def resize(batch: torch.Tensor, size: tuple[int, int], scale: float) -> torch.Tensor:
    return F.interpolate(batch, size=size, scale_factor=scale, mode="bilinear", align_corners=False)


def main() -> None:
    images = torch.rand(4, 3, 24, 24)
    for step in range(3):
        out = resize(images, (32, 32), 1.5)
        print(f"step {step}: {tuple(out.shape)}")
