"""Scanned pages read with PIL in 2 DataLoader workers and resized to 64x64; one scan in the folder is a
20000x20000 full-resolution export, over twice PIL's pixel limit, so Image.open refuses it as a possible
decompression bomb. (The file here is a PNG whose header says that size; PIL checks the size on open.)"""

import os
import struct
import tempfile
import zlib

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset


def png_header_only(path: str, width: int, height: int) -> None:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))


def write_scans(root: str, n: int) -> list[str]:
    rng = np.random.default_rng(0)
    paths = []
    for i in range(n):
        paths.append(os.path.join(root, f"scan_{i:03d}.png"))
        if i == 17:
            png_header_only(paths[-1], 20000, 20000)
        else:
            Image.fromarray(rng.integers(0, 255, (96, 80, 3), dtype=np.uint8)).save(paths[-1])
    return paths


class Scans(Dataset):
    def __init__(self, paths: list[str]):
        self.paths = paths

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, i: int) -> torch.Tensor:
        im = Image.open(self.paths[i]).convert("RGB").resize((64, 64))
        return torch.from_numpy(np.asarray(im, dtype=np.float32) / 255).permute(2, 0, 1)


def main() -> None:
    loader = DataLoader(Scans(write_scans(tempfile.mkdtemp(prefix="scans-"), 24)), batch_size=4, num_workers=2)
    for i, batch in enumerate(loader):
        print(f"batch {i}: {tuple(batch.shape)}", flush=True)
