"""sharing_strategy file_descriptor with a low open-files limit: the loader's tensors exhaust it (pytorch#973)."""

import resource

import torch
import torch.multiprocessing
from torch.utils.data import DataLoader, Dataset

from zoo.data import quiet_torch


class ManyTensors(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return [torch.zeros(2) for _ in range(32)]  # each a shared-memory file passed by descriptor


def main() -> None:
    quiet_torch()
    resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128))
    torch.multiprocessing.set_sharing_strategy("file_descriptor")
    kept = []
    for batch in DataLoader(ManyTensors(), batch_size=1, num_workers=2):
        kept.append(batch)  # kept for an epoch-end metric: their descriptors stay open
