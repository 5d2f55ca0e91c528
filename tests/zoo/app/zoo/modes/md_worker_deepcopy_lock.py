"""Test-time augmentation in 2 DataLoader workers: each sample is scored by a fresh `copy.deepcopy` of a small
scorer module (so its dropout state is per sample); the scorer keeps a `threading.Lock` guarding its cache, which
deepcopy cannot copy."""

import copy
import threading

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class Scorer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(6, 1)
        self.cache_lock = threading.Lock()
        self.cache: dict[int, float] = {}

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x)


class TTADataset(Dataset):
    def __init__(self) -> None:
        self.data = torch.randn(32, 6)
        self.scorer = Scorer()

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        scorer = copy.deepcopy(self.scorer)
        with torch.no_grad():
            score = scorer(self.data[i])
        return self.data[i], score


def main() -> None:
    loader = DataLoader(TTADataset(), batch_size=8, num_workers=2)
    for step, (x, score) in enumerate(loader):
        print(step, x.shape, score.mean().item())
