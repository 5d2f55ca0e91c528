"""Synthetic 8x8 images (blobs), as uint8 pixels like a decoded image file, and diffusion training pairs."""

import torch
from torch.utils.data import Dataset


def blobs(n: int, seed: int = 0) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(8.0), torch.arange(8.0), indexing="ij")
    cy, cx = torch.rand(n, 1, 1, generator=g) * 8, torch.rand(n, 1, 1, generator=g) * 8
    img = torch.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / 4.0)
    return (img * 255).round().to(torch.uint8).view(n, 64)


def to_unit(px: torch.Tensor) -> torch.Tensor:
    """uint8 pixels to [-1, 1]."""
    return px.float() / 127.5 - 1.0


class NoisyPairs(Dataset):
    """(x_t, t, noise) for the denoiser; the timestep is drawn per item, in the loader's workers."""

    def __init__(self, images: torch.Tensor, schedule, t_sampler) -> None:
        self.images = images
        self.schedule = schedule
        self.t_sampler = t_sampler

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int):
        x0 = to_unit(self.images[i]).unsqueeze(0)
        t = self.t_sampler()
        noise = torch.randn_like(x0)
        x_t = self.schedule.q_sample(x0, t, noise)
        return x_t[0], torch.as_tensor(t).long().view(()), noise[0]
