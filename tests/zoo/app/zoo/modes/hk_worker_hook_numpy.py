"""Offline feature extraction in the Dataset, in 2 DataLoader workers: a frozen-in-spirit backbone (its weights
still require grad) with a forward hook that stores the penultimate layer as a numpy array; the hook calls
`output.numpy()` on a tensor that requires grad."""

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class Features(Dataset):
    def __init__(self, n: int) -> None:
        self.n = n
        self.backbone = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 5))
        self.store: dict[str, object] = {}
        self.backbone[1].register_forward_hook(self.keep)

    def keep(self, module: nn.Module, inputs: tuple, output: torch.Tensor) -> None:
        self.store["penultimate"] = output.numpy()

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> torch.Tensor:
        g = torch.Generator().manual_seed(i)
        self.backbone(torch.randn(1, 10, generator=g))
        return torch.from_numpy(self.store["penultimate"][0].copy())


def main() -> None:
    loader = DataLoader(Features(32), batch_size=4, num_workers=2)
    for i, feats in enumerate(loader):
        print(f"batch {i} {tuple(feats.shape)}", flush=True)
