"""A Dataset that returns samples already on the GPU, read by a DataLoader with pin_memory=True: pinning
takes host tensors only (unit8co/darts#436, scverse/scvi-tools#1713)."""

import torch
from torch.utils.data import DataLoader, Dataset

from zoo.data import quiet_torch


class CachedOnGpu(Dataset):
    def __init__(self):
        self.features = torch.randn(256, 32, device="cuda")  # the whole set cached on the GPU

    def __len__(self):
        return len(self.features)

    def __getitem__(self, i):
        return self.features[i]


def main() -> None:
    quiet_torch()
    model = torch.nn.Linear(32, 4).cuda()
    loader = DataLoader(CachedOnGpu(), batch_size=32, pin_memory=True)  # the bug: pinning GPU samples
    for batch in loader:
        print(float(model(batch).sum()))
