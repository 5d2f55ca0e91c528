"""A click log read by 2 DataLoader workers, each click's item features pooled in the worker with a frozen
pretrained EmbeddingBag weighted by dwell time; the bag was built with mode="mean" (per_sample_weights need "sum")."""

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

PRETRAINED = nn.EmbeddingBag(40, 8, mode="mean")
PRETRAINED.requires_grad_(False)


class ClickLog(Dataset):
    def __init__(self, n=32):
        g = torch.Generator().manual_seed(0)
        self.feats = torch.randint(0, 40, (n, 4), generator=g)
        self.dwell = torch.rand(n, 4, generator=g) * 30

    def __len__(self):
        return len(self.feats)

    def __getitem__(self, i):
        weights = self.dwell[i] / self.dwell[i].sum()
        return PRETRAINED(self.feats[i : i + 1], per_sample_weights=weights.unsqueeze(0))[0]


def main() -> None:
    loader = DataLoader(ClickLog(), batch_size=8, num_workers=2)
    head = nn.Linear(8, 1)
    for step, x in enumerate(loader):
        print(f"step {step} score {head(x).mean().item():.4f}", flush=True)
