"""DDPM training pairs made in 2 DataLoader workers: each item draws its timestep with `random.randint(0, T)`,
which (unlike torch.randint) includes T, one past the last index of the 1000-step schedule."""

import random

import torch
from torch.utils.data import DataLoader, Dataset

T = 1000
BETAS = torch.linspace(1e-4, 0.02, T)
ALPHAS_CUMPROD = torch.cumprod(1.0 - BETAS, dim=0)


class NoisedImages(Dataset):
    def __init__(self, n: int) -> None:
        self.images = torch.rand(n, 1, 8, 8) * 2 - 1

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int):
        x0 = self.images[i]
        t = random.randint(0, T)
        ab = ALPHAS_CUMPROD[t]
        noise = torch.randn_like(x0)
        return ab.sqrt() * x0 + (1 - ab).sqrt() * noise, t, noise


def worker_seed(worker_id: int) -> None:
    random.seed(1000 + worker_id)


def main() -> None:
    torch.manual_seed(0)
    loader = DataLoader(NoisedImages(4096), batch_size=64, num_workers=2, worker_init_fn=worker_seed)
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(64, 64))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step, (x_t, _t, noise) in enumerate(loader):
        loss = torch.nn.functional.mse_loss(model(x_t), noise.flatten(1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)
