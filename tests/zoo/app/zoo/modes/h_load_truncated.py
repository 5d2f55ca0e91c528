"""A checkpoint whose copy was cut short (a full disk, an interrupted download): torch.load of the truncated file
fails in PyTorchFileReader: `failed finding central directory`."""

import os
import tempfile

import torch


def load_checkpoint(path: str) -> dict:
    return torch.load(path, map_location="cpu")


def main() -> None:
    torch.set_num_threads(1)
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "last.ckpt")
    torch.save({"w": torch.randn(64, 64)}, path)
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) // 2)
    print(load_checkpoint(path).keys())
