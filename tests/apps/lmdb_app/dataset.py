"""An OCR-style dataset over an LMDB database, as apps store their labelled images: `label-%09d` and
`image-%09d` per sample. Its labels are read and cleaned once, up front."""

import lmdb
import torch
from torch.utils.data import Dataset


class LmdbDataset(Dataset):
    def __init__(self, root: str):
        self.env = lmdb.open(root, readonly=True, lock=False, readahead=False, meminit=False)
        self.count = self.env.stat()["entries"] // 2
        self.labels = self._preprocess_labels()

    def _preprocess_labels(self) -> list[str]:
        labels = []
        with self.env.begin() as txn:
            for index in range(self.count):
                label = txn.get(b"label-%09d" % index).decode()
                labels.append(label.strip().lower())
        return labels

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index: int):
        with self.env.begin() as txn:
            image = txn.get(b"image-%09d" % index)
        pixels = torch.frombuffer(bytearray(image), dtype=torch.uint8).float() / 255
        return pixels[:64], len(self.labels[index]) % 10


def write_database(root: str, samples: int, image_bytes: int = 4096) -> None:
    """A database of `samples` labelled images of random bytes (the app's own data-preparation step)."""
    import os

    env = lmdb.open(root, map_size=1 << 30)
    with env.begin(write=True) as txn:
        for index in range(samples):
            txn.put(b"image-%09d" % index, os.urandom(image_bytes))
            txn.put(b"label-%09d" % index, f" Word{index} ".encode())
    env.close()
