"""Writing and copying the program's data stores."""

import io
import os
import shutil

import lmdb
import numpy as np
from PIL import Image


def build_lmdb(path: str, n: int, size: int = 4000, map_size: int = 1 << 26) -> None:
    shutil.rmtree(path, ignore_errors=True)
    rng = np.random.default_rng(0)
    env = lmdb.open(path, map_size=map_size)
    with env.begin(write=True) as txn:
        for i in range(n):
            txn.put(key(i), rng.integers(0, 255, size, dtype=np.uint8).tobytes())
    env.close()


def key(i: int) -> bytes:
    return f"{i:08d}".encode()


def copy_store(src: str, dst: str, limit: int | None = None) -> None:
    """Copies an LMDB folder's data file (not its lock file); `limit` stops after that many bytes (the sync job's
    quota)."""
    os.makedirs(dst, exist_ok=True)
    for name in ["data.mdb"]:
        with open(os.path.join(src, name), "rb") as fin, open(os.path.join(dst, name), "wb") as fout:
            fout.write(fin.read(limit) if limit else fin.read())


def read_record(txn, i: int) -> np.ndarray:
    buf = txn.get(key(i))
    return np.frombuffer(buf, dtype=np.uint8).astype(np.float32) / 255.0


def write_pngs(folder: str, n: int, flaky: int | None = None) -> list[str]:
    """n small PNGs; the export of image `flaky` flipped a byte of its pixel data."""
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(1)
    paths = []
    for i in range(n):
        buf = io.BytesIO()
        Image.fromarray(rng.integers(0, 255, (24, 24, 3), dtype=np.uint8)).save(buf, "PNG")
        data = bytearray(buf.getvalue())
        if i == flaky:
            at = data.find(b"IDAT") + 8
            data[at] ^= 0xFF
        path = os.path.join(folder, f"img_{i:04d}.png")
        with open(path, "wb") as f:
            f.write(data)
        paths.append(path)
    return paths
