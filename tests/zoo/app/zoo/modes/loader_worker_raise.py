"""A sample whose annotation lacks a key: the worker's KeyError is re-raised in the main process."""

from torch.utils.data import DataLoader

from zoo.data import Samples, quiet_torch

ANNOTATIONS = {0: "a", 1: "b", 2: "c", 4: "e"}  # sample 3 has none


def annotation_of(i: int) -> str:
    return ANNOTATIONS[i]


def main() -> None:
    quiet_torch()
    for _batch in DataLoader(Samples(fault=annotation_of), batch_size=2, num_workers=1):
        pass
