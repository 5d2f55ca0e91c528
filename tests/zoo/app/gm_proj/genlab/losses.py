"""Losses: the VAE's ELBO terms and WGAN-GP's gradient penalty."""

import torch
import torch.nn.functional as F


def kl_normal(mu: torch.Tensor, logvar: torch.Tensor) -> torch.Tensor:
    return -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1))


def vae_loss(recon: torch.Tensor, x: torch.Tensor, mu: torch.Tensor, logvar: torch.Tensor) -> torch.Tensor:
    return F.mse_loss(recon, x, reduction="sum") / x.shape[0] + kl_normal(mu, logvar)


def gradient_penalty(disc, real: torch.Tensor, fake: torch.Tensor, track: bool = True) -> torch.Tensor:
    eps = torch.rand(real.shape[0], 1)
    interp = eps * real + (1 - eps) * fake.detach()
    if track:
        interp.requires_grad_(True)
    out = disc(interp)
    grads = torch.autograd.grad(outputs=out, inputs=interp, grad_outputs=torch.ones_like(out), create_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()
