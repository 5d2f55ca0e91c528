"""Tiles decoded in DataLoader workers by the program's own C++ decoder (g++ at run time, ctypes): the scratch
buffer is `new float[width * height - HEADER]`. Tile 3 is an empty tile (width 0 in its header), the length is
negative, `new[]` throws std::bad_array_new_length (a std::bad_alloc) out of the extern "C" function: terminate,
abort in worker 1; the main then reports `DataLoader worker (pid N) is killed by signal: Aborted.`"""

import ctypes
import os
import struct
import subprocess
import tempfile

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

SRC = r"""
#include <cstring>
static const int HEADER = 8;
extern "C" int decode_tile(const unsigned char *buf, int width, int height, float *out) {
    float *scratch = new float[width * height - HEADER];
    int n = width * height - HEADER;
    for (int i = 0; i < n; i++) scratch[i] = buf[HEADER + i] / 255.0f;
    std::memcpy(out, scratch, sizeof(float) * n);
    delete[] scratch;
    return n;
}
"""


def build() -> ctypes.CDLL:
    d = tempfile.mkdtemp(prefix="om_tile_")
    src, lib = os.path.join(d, "tile.cpp"), os.path.join(d, "libtile.so")
    with open(src, "w") as f:
        f.write(SRC)
    subprocess.run(["g++", "-O0", "-shared", "-fPIC", "-o", lib, src], check=True)
    so = ctypes.CDLL(lib)
    so.decode_tile.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
    return so


def make_tile(i: int) -> bytes:
    w, h = (0, 4) if i == 3 else (6, 4)
    body = bytes(range(w * h))
    return struct.pack("<II", w, h) + body


class Tiles(Dataset):
    def __init__(self, so: ctypes.CDLL) -> None:
        self.so, self.tiles = so, [make_tile(i) for i in range(8)]

    def __len__(self) -> int:
        return len(self.tiles)

    def __getitem__(self, i: int) -> torch.Tensor:
        buf = self.tiles[i]
        w, h = struct.unpack("<II", buf[:8])
        out = np.zeros(24, dtype=np.float32)
        self.so.decode_tile(buf, w, h, out.ctypes.data)
        return torch.from_numpy(out)


def main() -> None:
    so = build()
    loader = DataLoader(Tiles(so), batch_size=1, num_workers=2)
    for step, x in enumerate(loader):
        print(f"step {step} mean {x.mean().item():.3f}", flush=True)
