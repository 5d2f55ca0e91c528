"""Builds the C helper with gcc at first use (into a fresh temporary folder, one per process) and declares its
functions for ctypes."""

import ctypes
import os
import subprocess
import tempfile

import numpy as np

CSRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "csrc")
VARIANTS = {"base": ["iops.c"], "fast": ["iops.c", "fast.c"]}
_libs: dict = {}


def load(variant: str = "base") -> ctypes.CDLL:
    if variant not in _libs:
        out = os.path.join(tempfile.mkdtemp(prefix="i_ops-"), f"libiops_{variant}.so")
        sources = [os.path.join(CSRC, name) for name in VARIANTS[variant]]
        subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-o", out, *sources], check=True)
        lib = ctypes.CDLL(out)
        i32 = np.ctypeslib.ndpointer(dtype=np.int32, flags="C_CONTIGUOUS")
        lib.iops_pack_row.argtypes = [i32, ctypes.c_int, ctypes.c_int, i32]
        lib.iops_pack_row.restype = ctypes.c_int
        lib.iops_table_new.argtypes = [ctypes.c_int]
        lib.iops_table_mean.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.iops_table_mean.restype = ctypes.c_double
        lib.iops_table_free.argtypes = [ctypes.c_void_p]
        f32 = np.ctypeslib.ndpointer(dtype=np.float32, flags="C_CONTIGUOUS")
        lib.iops_normalize.argtypes = [f32, ctypes.c_int, ctypes.c_int, ctypes.c_int, f32, f32]
        _libs[variant] = lib
    return _libs[variant]


def pack_row(ids: np.ndarray, cap: int) -> np.ndarray:
    out = np.zeros(cap, dtype=np.int32)
    load().iops_pack_row(np.ascontiguousarray(ids, dtype=np.int32), len(ids), cap, out)
    return out


def table_mean(n: int) -> float:
    lib = load()
    table = lib.iops_table_new(n)
    try:
        return lib.iops_table_mean(table, n)
    finally:
        lib.iops_table_free(table)


def normalize(img: np.ndarray, mean: np.ndarray, std: np.ndarray) -> np.ndarray:
    c, h, w = img.shape
    load().iops_normalize(img, c, h, w, mean, std)
    return img


def jitter(img: np.ndarray, gain: float) -> np.ndarray:
    lib = load("fast")
    lib.iops_jitter.argtypes = [np.ctypeslib.ndpointer(dtype=np.float32), ctypes.c_int, ctypes.c_float]
    lib.iops_jitter(img, img.size, gain)
    return img
