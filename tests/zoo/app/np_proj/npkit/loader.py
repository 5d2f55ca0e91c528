"""Datasets over numpy files: token windows from a uint16 token file, features from an .npz archive."""

import numpy as np
import torch
from torch.utils.data import Dataset


class TokenWindows(Dataset):
    """Fixed windows over a token file written as uint16 (half the size of int64), as nanoGPT's prepare does."""

    def __init__(self, path: str, block: int = 16):
        self.tokens = np.fromfile(path, dtype=np.uint16)
        self.block = block

    def __len__(self) -> int:
        return (len(self.tokens) - 1) // self.block

    def __getitem__(self, i: int):
        window = self.tokens[i * self.block : (i + 1) * self.block + 1]
        return torch.from_numpy(window[:-1].copy()), torch.from_numpy(window[1:].copy())


class NpzFeatures(Dataset):
    """Per-sample features kept in one .npz archive, opened once here and read in the loader's workers."""

    def __init__(self, path: str):
        with np.load(path) as archive:
            self.archive = archive
            self.n = len(archive["labels"])

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        feat = self.archive["feats"][i]
        return torch.from_numpy(feat), int(self.archive["labels"][i])
