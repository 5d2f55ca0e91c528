"""A synthetic spoken-letters corpus: WAV clips written at start, read back in DataLoader workers."""

import os

import numpy as np
import torch
from torch.utils.data import Dataset

from speechkit.audio import read_wav, write_wav

WORDS = ["yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go"]


def make_corpus(root: str, cfg) -> list[tuple[str, str]]:
    """Write cfg.n_clips clips (a tone per letter) and return (path, transcript) pairs."""
    rng = np.random.default_rng(0)
    items = []
    for i in range(cfg.n_clips):
        word = WORDS[i % len(WORDS)]
        sr = cfg.odd_rate if i == cfg.odd_index else cfg.sample_rate
        t = np.arange(int(sr * 0.12)) / sr
        x = np.concatenate([0.3 * np.sin(2 * np.pi * (200 + 30 * (ord(c) - 97)) * t) for c in word])
        x = (x + 0.01 * rng.standard_normal(len(x))).astype(np.float32)
        path = os.path.join(root, f"clip_{i:03d}.wav")
        if i == cfg.odd_index and cfg.odd_kind == "not_riff":
            with open(path, "wb") as f:  # an MP3 saved under a .wav name
                f.write(b"ID3\x04\x00\x00\x00\x00\x00\x00" + rng.bytes(2048))
        elif i == cfg.odd_index and cfg.odd_kind == "stereo":
            write_wav(path, np.stack([x, x], axis=1), sr)
        elif i == cfg.odd_index and cfg.odd_kind == "pcm24":
            write_wav(path, x, sr, width=3)
        else:
            write_wav(path, x, sr)
        items.append((path, word))
    return items


class Clips(Dataset):
    def __init__(self, items, vocab: str, cfg):
        self.items, self.cfg = items, cfg
        self.stoi = {c: i for i, c in enumerate(vocab)}

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int):
        path, text = self.items[i]
        x, sr = read_wav(path)
        if sr != self.cfg.sample_rate:
            raise ValueError(f"{path}: sample rate {sr} Hz, the model expects {self.cfg.sample_rate} Hz")
        if self.cfg.max_shift:
            x = time_shift(x, np.random.default_rng(self.cfg.seed + i), self.cfg.max_shift)
        target = torch.tensor([self.stoi[c] for c in text])
        return torch.from_numpy(np.ascontiguousarray(x)), target


def time_shift(x: np.ndarray, rng, max_shift: int) -> np.ndarray:
    """Delay the clip by a random number of samples (zeros in front), keeping its length."""
    shift = int(rng.integers(-max_shift, max_shift))
    return np.pad(x, (shift, 0))[: len(x)]


def pad_collate(batch):
    """Pad waveforms and targets to the longest in the batch; keep their lengths."""
    wavs, targets = zip(*batch)
    lengths = torch.tensor([w.shape[-1] for w in wavs])
    out = torch.zeros(len(wavs), int(lengths.max()))
    for i, w in enumerate(wavs):
        out[i, : w.shape[-1]] = w
    target_lengths = torch.tensor([len(t) for t in targets])
    return out, lengths, torch.cat(targets), target_lengths
