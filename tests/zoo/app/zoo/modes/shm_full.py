"""Workers' batches of 4 MiB through a /dev/shm of 8 MiB (a container's default 64 MiB, scaled down)."""

import torch
from torch.utils.data import DataLoader, Dataset

from zoo.data import quiet_torch


class Frames(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.zeros(1024, 1024)  # 4 MiB


def main() -> None:
    quiet_torch()
    for _batch in DataLoader(Frames(), batch_size=2, num_workers=2):
        pass
