"""An augmentation warps a batch of images with one random rotation: the affine grid is built for a batch of
one (theta of shape (1, 2, 3), size (1, C, H, W)) and applied to the batch of 4."""

import math

import torch
import torch.nn.functional as F


def random_rotate(images: torch.Tensor, degrees: float) -> torch.Tensor:
    a = math.radians(degrees)
    theta = torch.tensor([[[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0]]])
    grid = F.affine_grid(theta, [1, *images.shape[1:]], align_corners=False)
    return F.grid_sample(images, grid, align_corners=False)


def main() -> None:
    torch.manual_seed(0)
    images = torch.rand(4, 3, 16, 16)
    out = random_rotate(images, 15.0)
    print(out.shape)
