"""The datasets: each decodes its records with a library's native code."""

import struct

import numpy as np
import scipy.sparse as sp
import torch
from PIL import Image
from torch.utils.data import Dataset


class Records(Dataset):
    def __init__(self, path):
        self.offsets = []
        with open(path, "rb") as f:
            blob = f.read()
        pos = 0
        while pos < len(blob):
            dim, size = struct.unpack_from("<II", blob, pos)
            self.offsets.append((pos + 8, dim, size))
            pos += 8 + size
        self.path = path

    def __len__(self) -> int:
        return len(self.offsets)

    def __getitem__(self, i: int) -> torch.Tensor:
        start, dim, size = self.offsets[i]
        with open(self.path, "rb") as f:
            f.seek(start)
            payload = f.read(size)
        feats = np.frombuffer(payload, dtype=np.float32, count=dim)
        return torch.from_numpy(feats.copy())


class Hashed(Dataset):
    def __init__(self, path, n_features: int, dim: int):
        self.rows = dict(np.load(path))
        self.n_features = n_features
        self.proj = np.random.default_rng(1).standard_normal((n_features, dim)).astype(np.float32)

    def __len__(self) -> int:
        return len(self.rows) // 2

    def __getitem__(self, i: int) -> torch.Tensor:
        idx, val = self.rows[f"idx{i}"], self.rows[f"val{i}"]
        row = sp.csr_array((val, idx, np.array([0, len(idx)])), shape=(1, self.n_features))
        dense = row @ self.proj
        return torch.from_numpy(np.asarray(dense).reshape(-1))


class Scans(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, i: int) -> torch.Tensor:
        with Image.open(self.paths[i]) as im:
            pixels = np.asarray(im.convert("L"), dtype=np.float32) / 255.0
        return torch.from_numpy(pixels).flatten()
