"""Datasets: synthetic sensor windows with dropouts."""

import faulthandler

import torch
from torch.utils.data import DataLoader, Dataset

from qtensor.tensors import LoggedTensor, MaskedTensor


class LoggedWindows(Dataset):
    """Windows passed through the logging tensor so the int8 range check sees every value."""

    def __len__(self) -> int:
        return 16

    def __getitem__(self, i: int) -> torch.Tensor:
        x = torch.linspace(-1, 1, 8).as_subclass(LoggedTensor)
        scaled = x * (i + 1)
        return scaled.as_subclass(torch.Tensor)


class MaskedWindows(Dataset):
    """Windows with sensor dropouts (NaN) masked out, normalised by their valid mean."""

    def __len__(self) -> int:
        return 16

    def __getitem__(self, i: int) -> torch.Tensor:
        raw = torch.linspace(0, 1, 8) + i
        raw[i % 8] = float("nan")
        valid = ~raw.isnan()
        x = MaskedTensor(torch.nan_to_num(raw), valid)
        centred = x - 0.5
        total = centred.sum()
        return (centred / total).values


def enable_faulthandler(worker_id: int) -> None:
    """Native crashes in workers print the worker's Python stack (torch's own handler prints nothing)."""
    faulthandler.enable()


def loader(dataset: Dataset, workers: int = 1) -> DataLoader:
    return DataLoader(dataset, batch_size=4, num_workers=workers, worker_init_fn=enable_faulthandler)
