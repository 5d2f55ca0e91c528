"""Connected regions of a segmentation mask labelled by the program's own recursive flood fill in C (gcc at run
time, ctypes). The job script's `ulimit -s 2048` is kept by the program itself (RLIMIT_STACK 2 MiB); the mask is
thresholded with `>= 0` instead of `> 0`, so every pixel is foreground and the fill recurses once per pixel of a
256x256 mask: the C stack runs past its limit, SIGSEGV inside the fill."""

import ctypes
import os
import resource
import subprocess
import tempfile

import numpy as np

SRC = r"""
static void fill(const unsigned char *m, int *lab, int h, int w, int y, int x, int id) {
    if (y < 0 || y >= h || x < 0 || x >= w) return;
    int i = y * w + x;
    if (!m[i] || lab[i]) return;
    lab[i] = id;
    fill(m, lab, h, w, y + 1, x, id);
    fill(m, lab, h, w, y - 1, x, id);
    fill(m, lab, h, w, y, x + 1, id);
    fill(m, lab, h, w, y, x - 1, id);
}

int label_regions(const unsigned char *m, int *lab, int h, int w) {
    int next = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (m[y * w + x] && !lab[y * w + x]) fill(m, lab, h, w, y, x, ++next);
    return next;
}
"""


def build() -> ctypes.CDLL:
    d = tempfile.mkdtemp(prefix="om_flood_")
    src, lib = os.path.join(d, "flood.c"), os.path.join(d, "libflood.so")
    with open(src, "w") as f:
        f.write(SRC)
    subprocess.run(["gcc", "-O0", "-shared", "-fPIC", "-o", lib, src], check=True)
    so = ctypes.CDLL(lib)
    so.label_regions.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
    return so


def label_regions(so: ctypes.CDLL, mask: np.ndarray) -> np.ndarray:
    fg = np.ascontiguousarray(mask >= 0, dtype=np.uint8)
    labels = np.zeros(mask.shape, dtype=np.int32)
    n = so.label_regions(fg.ctypes.data, labels.ctypes.data, *mask.shape)
    print(f"{n} regions", flush=True)
    return labels


def main() -> None:
    so = build()
    _, hard = resource.getrlimit(resource.RLIMIT_STACK)
    resource.setrlimit(resource.RLIMIT_STACK, (2 << 20, hard))
    mask = np.random.default_rng(0).integers(0, 2, (256, 256)).astype(np.int64)
    print("labelling the mask", flush=True)
    label_regions(so, mask)
