"""Data: clips decoded by ffmpeg into raw samples, one ffmpeg process per item; labels; a manifest."""

import gzip
import os
import subprocess

import torch
from torch.utils.data import Dataset


class Clips(Dataset):
    def __init__(self, folder: str, n: int = 16):
        self.paths = [os.path.join(folder, f"clip_{i:03d}.mp4") for i in range(n)]
        for p in self.paths:
            with open(p, "wb") as f:
                f.write(os.urandom(256))

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, i: int):
        cmd = ["ffmpeg", "-v", "error", "-i", self.paths[i], "-f", "s16le", "-ac", "1", "-ar", "8000", "-"]
        raw = subprocess.run(cmd, capture_output=True, check=True).stdout
        wav = torch.frombuffer(bytearray(raw[:1600]), dtype=torch.int16).float() / 32768
        return wav, i % 4


def write_labels(path: str, n: int = 40) -> None:
    with gzip.open(path, "wt") as f:
        for i in range(n):
            f.write(f"clip_{i:03d}\t{i % 4}\n")


def write_manifest(path: str, n: int = 30) -> None:
    with open(path, "w") as f:
        for i in range(n):
            f.write(f"clip_{i % 20:03d}.mp4\n")
