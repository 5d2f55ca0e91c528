"""A loop that logs each step with print() (no flush) and packs its features with a small C helper of its own
(gcc at run time, ctypes). The step that meets an empty feature row passes NULL, and the helper reads through it:
SIGSEGV. The program rewraps stdout for UTF-8 (`io.TextIOWrapper(sys.stdout.buffer, ...)`, block-buffered, even
under PYTHONUNBUFFERED); stdout is a file in a batch job, so the step lines never reach the log."""

import ctypes
import io
import os
import subprocess
import sys
import tempfile

import torch

SOURCE = r"""
float sum_row(const float *row, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; i++) s += row[i];
    return s;
}
"""


def build_helper() -> ctypes.CDLL:
    folder = tempfile.mkdtemp(prefix="hdpack-")
    src, lib = os.path.join(folder, "pack.c"), os.path.join(folder, "libpack.so")
    with open(src, "w") as f:
        f.write(SOURCE)
    subprocess.run(["gcc", "-O0", "-shared", "-fPIC", "-o", lib, src], check=True)
    helper = ctypes.CDLL(lib)
    helper.sum_row.restype = ctypes.c_float
    helper.sum_row.argtypes = [ctypes.c_void_p, ctypes.c_int]
    return helper


def row_pointer(row: torch.Tensor):
    return row.data_ptr() if row.numel() else None


def main() -> None:
    sys.stdout = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8")
    helper = build_helper()
    rows = [torch.randn(16) for _ in range(5)] + [torch.empty(0)] + [torch.randn(16)]
    for step, row in enumerate(rows):
        print(f"step {step}: packing a row of {row.numel()} features")
        total = helper.sum_row(row_pointer(row), 16)
        print(f"step {step}: sum {total:.3f}")
