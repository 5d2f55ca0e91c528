"""A Dataset that moves each sample to the GPU in __getitem__, read by fork workers after the main process
has used CUDA: a forked worker cannot start CUDA again (pytorch#77159, pytorch#40403)."""

import torch
from torch.utils.data import DataLoader, Dataset

from zoo.data import quiet_torch


class GpuSamples(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return torch.full((16,), float(i)).cuda()  # the bug: CUDA in a forked worker


def main() -> None:
    quiet_torch()
    model = torch.nn.Linear(16, 1).cuda()
    loader = DataLoader(GpuSamples(), batch_size=8, num_workers=2, multiprocessing_context="fork")
    for batch in loader:
        print(float(model(batch).sum()))
