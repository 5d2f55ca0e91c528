"""Warnings made errors for the whole run (`warnings.simplefilter("error")`, the team's CI setting), before a
DataLoader with 2 workers; each record's positions are built with the deprecated `torch.range`. The forked workers
inherit the filters, so torch's deprecation UserWarning is raised in worker 0 and re-raised by the main."""

import warnings

import torch
from torch.utils.data import DataLoader, Dataset


class Clips(Dataset):
    def __len__(self) -> int:
        return 32

    def __getitem__(self, i: int) -> torch.Tensor:
        length = 8 + i % 4
        positions = torch.range(0, length - 1)  # end-inclusive: length values
        return torch.nn.functional.pad(positions, (0, 12 - length))


def main() -> None:
    warnings.simplefilter("error")
    loader = DataLoader(Clips(), batch_size=4, num_workers=2)
    for step, batch in enumerate(loader):
        print(f"step {step} mean position {batch.mean().item():.2f}", flush=True)
