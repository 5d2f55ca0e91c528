"""The models: a small MLP GAN, a VAE and a diffusion denoiser, on 8x8 one-channel images (64 values)."""

import torch
from torch import nn

PIX = 64


class Generator(nn.Module):
    def __init__(self, nz: int = 16) -> None:
        super().__init__()
        self.nz = nz
        self.net = nn.Sequential(nn.Linear(nz, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Linear(128, PIX), nn.Tanh())

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(PIX, 128), nn.LeakyReLU(0.2), nn.Linear(128, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


class VAE(nn.Module):
    def __init__(self, nz: int = 8) -> None:
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(PIX, 128), nn.ReLU())
        self.mu = nn.Linear(128, nz)
        self.logvar = nn.Linear(128, nz)
        self.dec = nn.Sequential(nn.Linear(nz, 128), nn.ReLU(), nn.Linear(128, PIX))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar


class Denoiser(nn.Module):
    """Predicts the noise from x_t and the timestep's embedding."""

    def __init__(self, steps: int) -> None:
        super().__init__()
        self.steps = steps
        self.net = nn.Sequential(nn.Linear(PIX + 1, 128), nn.SiLU(), nn.Linear(128, PIX))

    def forward(self, x_t: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        tt = (t.float() / self.steps).view(-1, 1)
        return self.net(torch.cat([x_t, tt.to(x_t.dtype)], dim=1))
