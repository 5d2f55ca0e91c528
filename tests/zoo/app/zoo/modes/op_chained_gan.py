"""A GAN whose generator's and discriminator's exponential decays are stepped together with one
`ChainedScheduler`; torch refuses schedulers of different optimizers in one chain."""

import torch
from torch import nn
from torch.optim import lr_scheduler


def main() -> None:
    gen = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    disc = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))
    opt_g = torch.optim.Adam(gen.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(disc.parameters(), lr=2e-4, betas=(0.5, 0.999))
    sched = lr_scheduler.ChainedScheduler(
        [lr_scheduler.ExponentialLR(opt_g, gamma=0.99), lr_scheduler.ExponentialLR(opt_d, gamma=0.99)]
    )
    for step in range(3):
        z = torch.randn(16, 4)
        loss_d = disc(gen(z).detach()).mean() - disc(torch.randn(16, 2)).mean()
        opt_d.zero_grad()
        loss_d.backward()
        opt_d.step()
        loss_g = -disc(gen(z)).mean()
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
        sched.step()
        print(f"step {step} d {loss_d.item():.3f} g {loss_g.item():.3f}", flush=True)
