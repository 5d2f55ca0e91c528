"""Two augmented views made in 2 DataLoader workers; the horizontal flip was ported from the numpy pipeline
as `x[..., ::-1]`, which a torch tensor refuses (negative slice steps are not supported)."""

import random

import torch
from torch.utils.data import DataLoader, Dataset


def augment(x: torch.Tensor, rng: random.Random) -> torch.Tensor:
    top, left = rng.randint(0, 8), rng.randint(0, 8)
    v = x[:, top : top + 24, left : left + 24]
    if rng.random() < 0.5:
        v = v[..., ::-1]
    return v * rng.uniform(0.6, 1.4)


class TwoViews(Dataset):
    def __init__(self, n: int):
        self.images = torch.rand(n, 3, 32, 32, generator=torch.Generator().manual_seed(0))

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int):
        rng = random.Random(i)
        return augment(self.images[i], rng), augment(self.images[i], rng)


def main() -> None:
    loader = DataLoader(TwoViews(32), batch_size=8, num_workers=2)
    for step, (v1, v2) in enumerate(loader):
        print(f"step {step}: views {tuple(v1.shape)} {tuple(v2.shape)}", flush=True)
