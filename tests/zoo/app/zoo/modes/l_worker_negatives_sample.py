"""Contrastive pairs drawn in 2 DataLoader workers: each anchor takes K=8 negatives with `random.sample` from the
other items of its class-less pool; the pool of the rare class "heron" holds only 5 items."""

import random

import torch
from torch.utils.data import DataLoader, Dataset

K_NEGATIVES = 8


class Pairs(Dataset):
    def __init__(self):
        self.classes = ["gull"] * 40 + ["tern"] * 30 + ["heron"] * 6
        self.features = torch.randn(len(self.classes), 16, generator=torch.Generator().manual_seed(0))
        self.by_class = {c: [i for i, k in enumerate(self.classes) if k == c] for c in set(self.classes)}

    def __len__(self) -> int:
        return len(self.classes)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        same = [j for j in self.by_class[self.classes[i]] if j != i]
        negatives = random.sample(same, K_NEGATIVES)
        return self.features[i], self.features[negatives]


def main() -> None:
    loader = DataLoader(Pairs(), batch_size=8, num_workers=2, shuffle=False)
    for step, (anchor, negatives) in enumerate(loader):
        loss = torch.cdist(anchor[:, None], negatives).mean()
        print(f"step {step} loss {loss.item():.3f}", flush=True)
