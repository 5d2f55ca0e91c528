"""Synthetic samples: a token row (packed by the C helper) and a small RGB image (normalised by it), and the
per-sample features a legacy extractor wrote as raw float32."""

import os
import tempfile

import numpy as np
import torch
from i_ops import native
from torch.utils.data import Dataset

MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)


def token_rows(n: int, length: int) -> list:
    rng = np.random.default_rng(0)
    return [rng.integers(1, 1000, size=length, dtype=np.int32) for _ in range(n)]


def write_features(n: int, dim: int, byteorder: str) -> str:
    path = os.path.join(tempfile.mkdtemp(prefix="i_feats-"), "features.f32")
    rng = np.random.default_rng(1)
    rng.standard_normal((n, dim)).astype(f"{byteorder}f4").tofile(path)
    return path


class Samples(Dataset):
    def __init__(self, cfg: dict):
        self.cfg = cfg
        self.rows = token_rows(cfg["samples"], cfg["seq_len"])
        self.packed = [native.pack_row(r, cfg["max_len"]) for r in self.rows]
        self.features = None
        if cfg["features"]:
            raw = np.fromfile(write_features(cfg["samples"], 8, cfg["features"]), dtype=f"{cfg['features']}f4")
            self.features = torch.from_numpy(raw.reshape(cfg["samples"], 8))

    def __len__(self) -> int:
        return len(self.rows)

    def image(self, i: int) -> np.ndarray:
        rng = np.random.default_rng(i)
        hwc = rng.random((16, 16, 3), dtype=np.float32)
        chw = hwc.transpose(2, 0, 1) if self.cfg["layout"] == "view" else np.ascontiguousarray(hwc.transpose(2, 0, 1))
        img = native.normalize(chw, MEAN, STD)
        if self.cfg["jitter"]:
            img = native.jitter(img, 1.1)
        return img

    def __getitem__(self, i: int):
        tokens = torch.from_numpy(self.packed[i][: self.cfg["max_len"]].astype(np.int64))
        img = torch.from_numpy(np.ascontiguousarray(self.image(i)))
        feats = self.features[i] if self.features is not None else torch.zeros(8)
        return tokens, img, feats, i % 4
