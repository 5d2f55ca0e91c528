"""Each record is checked against its dataclass's type hints (typing.get_type_hints) in the DataLoader workers;
the module uses postponed annotations and imports Tensor only for the type checker, so the hints cannot be
resolved at run time."""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch
from torch.utils.data import DataLoader, Dataset

if TYPE_CHECKING:
    from torch import Tensor


@dataclass
class Record:
    image: Tensor
    label: int


def validate(record: Record) -> Record:
    for name, hint in typing.get_type_hints(Record).items():
        if not isinstance(getattr(record, name), hint):
            raise TypeError(f"field {name} is not a {hint}")
    return record


class Records(Dataset):
    def __len__(self) -> int:
        return 32

    def __getitem__(self, i: int) -> tuple:
        rec = validate(Record(image=torch.rand(3, 8, 8), label=i % 4))
        return rec.image, rec.label


def main() -> None:
    loader = DataLoader(Records(), batch_size=8, num_workers=2)
    for step, (images, labels) in enumerate(loader):
        print(f"step {step} {tuple(images.shape)} {labels.tolist()}", flush=True)
