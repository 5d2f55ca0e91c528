"""Noise schedules for the diffusion model."""

import numpy as np
import torch


def linear_betas(steps: int, start: float = 1e-4, end: float = 0.02) -> torch.Tensor:
    """The DDPM paper's linear schedule, built with numpy as the reference code does."""
    return torch.from_numpy(np.linspace(start, end, steps))


def linear_betas_f32(steps: int, start: float = 1e-4, end: float = 0.02) -> torch.Tensor:
    return torch.linspace(start, end, steps, dtype=torch.float32)


class Schedule:
    def __init__(self, betas: torch.Tensor) -> None:
        self.betas = betas
        self.steps = len(betas)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)

    def q_sample(self, x0: torch.Tensor, t: torch.Tensor, noise: torch.Tensor) -> torch.Tensor:
        ab = self.alphas_cumprod[t].view(-1, 1)
        return ab.sqrt() * x0 + (1.0 - ab).sqrt() * noise
