"""A dataset whose workers read the split name from EN_SPLIT; the main exports it only after `iter(loader)` has
started its 2 workers (as a setup step placed after the loader), so the forked workers never see it."""

import os

import torch
from torch.utils.data import DataLoader, Dataset


class Shards(Dataset):
    def __len__(self):
        return 32

    def __getitem__(self, i):
        split = os.environ["EN_SPLIT"]
        g = torch.Generator().manual_seed(i + (0 if split == "train" else 1000))
        return torch.randn(8, generator=g)


def main() -> None:
    loader = DataLoader(Shards(), batch_size=8, num_workers=2)
    batches = iter(loader)
    os.environ["EN_SPLIT"] = "train"
    model = torch.nn.Linear(8, 1)
    for step, x in enumerate(batches):
        loss = model(x).pow(2).mean()
        loss.backward()
        print(f"step {step} loss {loss.item():.3f}", flush=True)
