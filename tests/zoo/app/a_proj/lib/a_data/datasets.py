"""Datasets over files on disk: PNG images with a labels CSV, .npy samples, a float memmap, a sqlite index, and a
stream of shard files split between DataLoader workers with get_worker_info()."""

import multiprocessing as mp
import os
import sqlite3

import numpy as np
import pandas as pd
import torch
from PIL import Image
from torch.utils.data import Dataset, IterableDataset, get_worker_info


class ImageFolderCSV(Dataset):
    """PNG images listed in labels.csv (file,label), read with PIL and passed through a transform."""

    def __init__(self, root: str, transform):
        self.root = root
        self.table = pd.read_csv(os.path.join(root, "labels.csv"))
        self.transform = transform

    def __len__(self) -> int:
        return len(self.table)

    def __getitem__(self, i: int) -> dict:
        row = self.table.iloc[i]
        img = Image.open(os.path.join(self.root, row["file"]))
        return {"x": self.transform(img), "y": int(row["label"]), "meta": {"file": row["file"]}}


class NpySamples(Dataset):
    """One .npy file per sample; labels from a CSV that a cleaning step may have shortened."""

    def __init__(self, root: str):
        self.files = sorted(f for f in os.listdir(root) if f.endswith(".npy"))
        self.root = root
        self.labels = pd.read_csv(os.path.join(root, "labels.csv"))

    def __len__(self) -> int:
        return len(self.files)

    def __getitem__(self, i: int) -> dict:
        x = torch.from_numpy(np.load(os.path.join(self.root, self.files[i])))
        label = self.labels.iloc[i]["label"]
        return {"x": x, "y": int(label), "meta": {"file": self.files[i]}}


class Captions(Dataset):
    """Feature vectors with a caption each, from captions.csv (id,label,caption)."""

    def __init__(self, root: str):
        self.table = pd.read_csv(os.path.join(root, "captions.csv"))
        self.features = np.load(os.path.join(root, "features.npy"))

    def __len__(self) -> int:
        return len(self.table)

    def __getitem__(self, i: int) -> dict:
        row = self.table.iloc[i]
        x = torch.from_numpy(self.features[row["id"]])
        return {"x": x, "y": int(row["label"]), "meta": {"caption": row["caption"]}}


class MultiSource(Dataset):
    """Samples from two sources; the curated one records the crop box each sample was cut with."""

    def __init__(self, root: str):
        self.features = np.load(os.path.join(root, "features.npy"))
        self.sources = ["web" if i % 5 == 3 else "curated" for i in range(len(self.features))]

    def __len__(self) -> int:
        return len(self.features)

    def __getitem__(self, i: int) -> dict:
        meta = {"source": self.sources[i]}
        if self.sources[i] == "curated":
            meta["crop"] = [0, 0, 32, 32]
        return {"x": torch.from_numpy(self.features[i]), "y": i % 4, "meta": meta}


class MemmapFeatures(Dataset):
    """Precomputed features in one raw file, opened lazily in each worker (not shared across the fork)."""

    def __init__(self, root: str, n: int, dim: int):
        self.path = os.path.join(root, "features.f32")
        self.n, self.dim = n, dim
        self.data = None

    def __len__(self) -> int:
        return self.n

    def _open(self) -> np.ndarray:
        return np.memmap(self.path, dtype=np.float32, mode="r").reshape(self.n, self.dim)

    def __getitem__(self, i: int) -> dict:
        if self.data is None:
            self.data = self._open()
        return {"x": torch.from_numpy(np.array(self.data[i])), "y": i % 4, "meta": {"row": i}}


class SqliteIndex(Dataset):
    """Samples located through a sqlite index (id -> offset in a features file), its connection opened once."""

    def __init__(self, root: str):
        self.conn = sqlite3.connect(os.path.join(root, "index.db"))
        self.features = np.load(os.path.join(root, "features.npy"))
        self.n = self.conn.execute("SELECT COUNT(*) FROM samples").fetchone()[0]

    def __len__(self) -> int:
        return self.n

    def lookup(self, i: int) -> tuple[int, int]:
        return self.conn.execute("SELECT row, label FROM samples WHERE id = ?", (i,)).fetchone()

    def __getitem__(self, i: int) -> dict:
        row, label = self.lookup(i)
        return {"x": torch.from_numpy(self.features[row]), "y": label, "meta": {"row": row}}


class ShardStream(IterableDataset):
    """Shard files (.npy, rows of features) split between DataLoader workers by get_worker_info()."""

    def __init__(self, root: str, sync_workers: int = 0):
        self.shards = sorted(os.path.join(root, f) for f in os.listdir(root) if f.startswith("shard"))
        self.barrier = mp.Barrier(sync_workers) if sync_workers else None

    def __iter__(self):
        info = get_worker_info()
        mine = self.shards[info.id :: info.num_workers]
        for path in mine:
            rows = np.load(path)
            if self.barrier is not None:
                self.barrier.wait()
            for j, r in enumerate(rows):
                yield {"x": torch.from_numpy(r), "y": j % 4, "meta": {"shard": os.path.basename(path)}}
