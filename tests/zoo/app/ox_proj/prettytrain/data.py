"""Synthetic samples, kept in memory or in a cache of raw float32 records (one bytes object per sample),
read back with np.frombuffer; the "native" cache checks each record with the project's C helper."""

import ctypes
import os
import subprocess
import tempfile

import numpy as np
import torch
from torch.utils.data import Dataset

HELPER_C = r"""
float record_sum(const float *p, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; i++) s += p[i];
    return s;
}
"""
_lib = None


def helper() -> ctypes.CDLL:
    global _lib
    if _lib is None:
        d = tempfile.mkdtemp(prefix="prettytrain_")
        src, so = os.path.join(d, "record.c"), os.path.join(d, "librecord.so")
        with open(src, "w") as f:
            f.write(HELPER_C)
        subprocess.run(["gcc", "-O0", "-shared", "-fPIC", "-o", so, src], check=True)
        _lib = ctypes.CDLL(so)
        _lib.record_sum.restype = ctypes.c_float
        _lib.record_sum.argtypes = [ctypes.c_void_p, ctypes.c_int]
    return _lib


def make_samples(cfg: dict) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(cfg["samples"], cfg["features"], generator=g)
    y = torch.arange(cfg["samples"]) % cfg["data_classes"]
    return x, y


class Records(Dataset):
    def __init__(self, cfg: dict):
        x, self.y = make_samples(cfg)
        self.cfg = cfg
        self.records = [row.numpy().tobytes() for row in x]
        if cfg["cache"] == "raw":
            self.records[37] = self.records[37][:-2]  # the record an interrupted writer cut short
        if cfg["cache"] == "native":
            self.records[37] = b""  # a record the writer never filled
            helper()

    def __len__(self) -> int:
        return len(self.records)

    def __getitem__(self, i: int):
        rec = self.records[i]
        if self.cfg["cache"] == "native":
            n = len(rec) // 4
            buf = ctypes.create_string_buffer(rec, len(rec)) if n else None
            helper().record_sum(buf, self.cfg["features"])
        x = torch.from_numpy(np.frombuffer(rec, dtype=np.float32).copy())
        return x, self.y[i]
