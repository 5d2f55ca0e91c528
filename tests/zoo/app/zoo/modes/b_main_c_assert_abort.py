"""Feature histograms computed by a small C helper built at run time (gcc, ctypes); the number of bins comes from
Sturges' rule on the feature's distinct values, zero for a constant feature, and the helper's own assert() on it
fails: the main process aborts (SIGABRT)."""

import ctypes
import math
import os
import subprocess
import tempfile

import numpy as np

SOURCE = r"""
#include <assert.h>
void build_hist(const double *x, int n, int n_bins, double lo, double hi, int *out) {
    assert(n_bins > 0);
    for (int i = 0; i < n; i++) {
        int b = (int)((x[i] - lo) / (hi - lo) * n_bins);
        if (b >= n_bins) b = n_bins - 1;
        out[b]++;
    }
}
"""


def build_helper() -> ctypes.CDLL:
    folder = tempfile.mkdtemp(prefix="bhist-")
    src, lib = os.path.join(folder, "hist.c"), os.path.join(folder, "libhist.so")
    with open(src, "w") as f:
        f.write(SOURCE)
    subprocess.run(["gcc", "-O0", "-shared", "-fPIC", "-o", lib, src], check=True)
    return ctypes.CDLL(lib)


def histogram(lib: ctypes.CDLL, column: np.ndarray) -> np.ndarray:
    n_bins = int(math.log2(len(np.unique(column))))
    out = np.zeros(max(n_bins, 1), dtype=np.int32)
    x = np.ascontiguousarray(column, dtype=np.float64)
    lib.build_hist(
        x.ctypes.data_as(ctypes.POINTER(ctypes.c_double)),
        ctypes.c_int(len(x)),
        ctypes.c_int(n_bins),
        ctypes.c_double(float(x.min())),
        ctypes.c_double(float(x.max()) + 1e-9),
        out.ctypes.data_as(ctypes.POINTER(ctypes.c_int)),
    )
    return out


def main() -> None:
    lib = build_helper()
    rng = np.random.default_rng(0)
    features = {"age": rng.normal(40, 10, 200), "income": rng.lognormal(10, 1, 200), "country": np.full(200, 3.0)}
    for name, column in features.items():
        print(name, histogram(lib, column).tolist(), flush=True)
