"""torch.save into a checkpoint folder the program never created."""

import os
import tempfile

import torch


def save_checkpoint(model: torch.nn.Module, out_dir: str, epoch: int) -> None:
    torch.save(model.state_dict(), os.path.join(out_dir, f"epoch_{epoch}", "model.pt"))


def main() -> None:
    with tempfile.TemporaryDirectory() as out_dir:
        save_checkpoint(torch.nn.Linear(4, 2), out_dir, 1)
