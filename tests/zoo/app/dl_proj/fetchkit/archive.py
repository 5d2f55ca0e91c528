"""Building the archives (as the mirror would) and unpacking them into the data folder."""

import gzip
import io
import os
import zipfile

import numpy as np


def digits_npz(n: int = 64) -> bytes:
    rng = np.random.default_rng(0)
    buf = io.BytesIO()
    np.savez(buf, x=rng.random((n, 8, 8), dtype=np.float32), y=rng.integers(0, 10, n))
    return buf.getvalue()


def write_zip(path: str, members: dict) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)


def write_gz(path: str, data: bytes) -> None:
    with gzip.open(path, "wb") as f:
        f.write(data)


def unzip(path: str, dest: str) -> list:
    with zipfile.ZipFile(path) as z:
        z.extractall(dest)
        names = z.namelist()
    print(f"extracted {len(names)} files into {dest}", flush=True)
    return names


def gunzip(path: str) -> bytes:
    with gzip.open(path, "rb") as f:
        return f.read()


def truncate(path: str, keep: float) -> None:
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.truncate(int(size * keep))
