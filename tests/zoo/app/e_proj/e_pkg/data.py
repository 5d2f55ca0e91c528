"""Features cached as a raw float32 file under the run's folder, read through np.memmap in the loader's workers."""

import os

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def prepare_cache(path: str, num_samples: int, num_features: int, max_rows: int | None = None) -> None:
    """Write the features, one row per sample; `max_rows` stops early (the debug preset's shortcut)."""
    rng = np.random.default_rng(0)
    rows = num_samples if max_rows is None else min(num_samples, max_rows)
    feats = rng.standard_normal((rows, num_features)).astype(np.float32)
    with open(path, "wb") as f:
        f.write(feats.tobytes())


class CachedFeatures(Dataset):
    def __init__(self, path: str, num_samples: int, num_features: int, num_classes: int):
        self.path, self.shape = path, (num_samples, num_features)
        self.labels = np.arange(num_samples) % num_classes
        self._feats = None  # opened in each worker, not pickled with the dataset

    def _open(self) -> np.memmap:
        if self._feats is None:
            self._feats = np.memmap(self.path, dtype=np.float32, mode="r", shape=self.shape)
        return self._feats

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, index: int):
        feats = self._open()
        return torch.from_numpy(np.array(feats[index])), int(self.labels[index])


def make_loader(cfg: dict, run_dir: str) -> DataLoader:
    data = cfg["data"]
    path = os.path.join(run_dir, "features.f32")
    prepare_cache(path, data["num_samples"], data["num_features"], data.get("prepare_max_rows"))
    dataset = CachedFeatures(path, data["num_samples"], data["num_features"], data["num_classes"])
    return DataLoader(dataset, batch_size=data["batch_size"], shuffle=True, num_workers=data["num_workers"])
