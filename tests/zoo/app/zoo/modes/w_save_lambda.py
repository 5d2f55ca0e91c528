"""A checkpoint that keeps the input transform beside the weights, so that inference applies the same one; the
transform is a module-level lambda, which pickle cannot save by name."""

import os
import tempfile

import torch
from torch import nn

NORMALIZE = lambda x: (x - 0.5) / 0.25  # noqa: E731


def save_checkpoint(model: nn.Module, path: str) -> None:
    torch.save({"state_dict": model.state_dict(), "transform": NORMALIZE}, path)


def main() -> None:
    model = nn.Linear(4, 2)
    path = os.path.join(tempfile.mkdtemp(prefix="w_save_lambda-"), "last.pt")
    save_checkpoint(model, path)
    print(f"saved {path}")
