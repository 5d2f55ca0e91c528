"""hr_proj's datasets, each built by hydra.utils.instantiate from the `data.dataset` node."""

import ctypes
import threading
import time

import numpy as np
import torch
from hydra.utils import instantiate
from torch.utils.data import Dataset, get_worker_info

CACHE_LOCK = threading.Lock()


def _target(i: int) -> torch.Tensor:
    return torch.tensor([float(i % 3)])


class VectorDataset(Dataset):
    """Random feature vectors; with warm_cache, a background thread fills a cache of them while training starts."""

    def __init__(self, size: int, features: int, warm_cache: bool = False) -> None:
        self.size, self.features = size, features
        self.cache: dict[int, torch.Tensor] = {}
        if warm_cache:
            started = threading.Event()
            threading.Thread(target=self._warm, args=(started,), name="cache-warmer", daemon=True).start()
            started.wait()

    def _warm(self, started: threading.Event) -> None:
        with CACHE_LOCK:
            started.set()
            for i in range(self.size):
                self.cache[i] = torch.randn(self.features, generator=torch.Generator().manual_seed(i))
                time.sleep(0.5)

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i: int):
        with CACHE_LOCK:
            x = self.cache.get(i)
        if x is None:
            x = torch.randn(self.features, generator=torch.Generator().manual_seed(i))
        return x, _target(i)


class PackedRecords(Dataset):
    """Fixed-size float records in native buffers (as an exporter's C reader hands them over), copied per item."""

    def __init__(self, size: int, features: int, empty: list) -> None:
        self.size, self.features = size, features
        self.nbytes = features * 4
        self._buffers = []
        self.index = []  # (address, nbytes) of each record; 0 for one exported empty
        for i in range(size):
            if i in empty:
                self.index.append((0, self.nbytes))
                continue
            buf = (ctypes.c_float * features)(*([float(i)] * features))
            self._buffers.append(buf)
            self.index.append((ctypes.addressof(buf), self.nbytes))

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i: int):
        out = np.empty(self.features, dtype=np.float32)
        addr, nbytes = self.index[i]
        ctypes.memmove(out.ctypes.data, addr, nbytes)
        return torch.from_numpy(out), _target(i)


class CharTokenizer:
    def __init__(self, length: int) -> None:
        self.length = length

    def encode(self, text: str, offset: int) -> list:
        return [ord(c) % 32 for c in text[offset : offset + self.length].ljust(self.length)]


class Jitter:
    def __init__(self, scale: float) -> None:
        self.scale = scale

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.scale * torch.randn_like(x)


class TokenDataset(Dataset):
    """Windows of a text as token ids; `augment` arrives as a config and is built once per worker."""

    def __init__(self, size: int, text: str, tokenizer, augment, features: int) -> None:
        self.size, self.text, self.features = size, text, features
        self.tokenizer = tokenizer
        self.augment_cfg = augment
        self._augment = None

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i: int):
        if self._augment is None:
            info = get_worker_info()
            self._augment = instantiate(self.augment_cfg, scale=0.1 * (1 + (info.id if info else 0)))
        ids = self.tokenizer.encode(self.text, i)
        x = torch.tensor(ids[: self.features], dtype=torch.float32) / 32
        return self._augment(x), _target(i)
