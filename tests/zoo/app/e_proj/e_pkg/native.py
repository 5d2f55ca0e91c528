"""A weighted class histogram in C, built with the system's compiler the first time it is used (the project's own
native helper; no wheel to install)."""

import ctypes
import os
import subprocess
import tempfile

import numpy as np

SOURCE = r"""
#include <stdint.h>
void weighted_hist(const int64_t *labels, const float *weights, int64_t n, float *out) {
    for (int64_t i = 0; i < n; i++) {
        out[labels[i]] += weights[i];
    }
}
"""

_lib = None


def _load() -> ctypes.CDLL:
    global _lib
    if _lib is None:
        folder = tempfile.mkdtemp(prefix="e_native_")
        src, so = os.path.join(folder, "ehist.c"), os.path.join(folder, "libehist.so")
        with open(src, "w") as f:
            f.write(SOURCE)
        subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-o", so, src], check=True)
        _lib = ctypes.CDLL(so)
        _lib.weighted_hist.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p]
    return _lib


def weighted_histogram(labels: np.ndarray, num_classes: int, weights: np.ndarray | None = None) -> np.ndarray:
    lib = _load()
    labels = np.ascontiguousarray(labels, dtype=np.int64)
    out = np.zeros(num_classes, dtype=np.float32)
    w = None if weights is None else np.ascontiguousarray(weights, dtype=np.float32).ctypes.data
    lib.weighted_hist(labels.ctypes.data, w, len(labels), out.ctypes.data)
    return out
