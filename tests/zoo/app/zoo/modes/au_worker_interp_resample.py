"""Clips of mixed sample rates resampled to 16 kHz on the fly with `F.interpolate` in 2 DataLoader workers; the
resampler was written for batched (batch, channel, time) audio and gets one clip's 1-D waveform."""

import os
import tempfile
import wave

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

TARGET = 16000


def write_clips(root: str) -> list[str]:
    rng = np.random.default_rng(0)
    paths = []
    for i in range(16):
        sr = 22050 if i == 10 else TARGET
        path = os.path.join(root, f"cmd_{i:02d}.wav")
        with wave.open(path, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(sr)
            w.writeframes((rng.standard_normal(sr // 2) * 2000).astype(np.int16).tobytes())
        paths.append(path)
    return paths


def resample(x: torch.Tensor, sr: int) -> torch.Tensor:
    if sr == TARGET:
        return x
    return F.interpolate(x, scale_factor=TARGET / sr, mode="linear")


class Commands(Dataset):
    def __init__(self, paths: list[str]):
        self.paths = paths

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, i: int) -> torch.Tensor:
        with wave.open(self.paths[i], "rb") as w:
            sr = w.getframerate()
            x = np.frombuffer(w.readframes(w.getnframes()), np.int16).astype(np.float32) / 32768
        return resample(torch.from_numpy(x), sr)[: TARGET // 2]


def main() -> None:
    loader = DataLoader(Commands(write_clips(tempfile.mkdtemp(prefix="au_interp_"))), batch_size=4, num_workers=2)
    for step, batch in enumerate(loader):
        print(f"step {step}: batch {tuple(batch.shape)}", flush=True)
