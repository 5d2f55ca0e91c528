"""Resuming from a checkpoint path that does not exist (a run folder renamed): torch.load's FileNotFoundError."""

import torch

from zoo.data import quiet_torch


def resume(path: str):
    return torch.load(path)


def main() -> None:
    quiet_torch()
    resume("runs/last/checkpoint.pt")
