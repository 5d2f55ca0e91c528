"""The ninety-first held-out set's native helper (hr_ modes): the program's own C++ vocabulary exporter, built with
g++ at run time into a shared library (cached by its source's hash) and called through ctypes."""

import ctypes
import hashlib
import os
import subprocess

SOURCE = r"""
#include <stdexcept>
#include <string>

extern "C" long hr_export_vocab(const long *ids, long n, long vocab_size) {
    long total = 0;
    for (long i = 0; i < n; i++) {
        if (ids[i] < 0 || ids[i] >= vocab_size)
            throw std::out_of_range("token id " + std::to_string(ids[i]) + " outside the vocabulary of " +
                                    std::to_string(vocab_size) + " entries");
        total += ids[i];
    }
    return total;
}

/* resample n values to m: 0 nearest, 1 linear; cubic (2) is only in the GPU build */
extern "C" void hr_resize(const float *src, long n, float *dst, long m, int interp) {
    for (long j = 0; j < m; j++) {
        double pos = (double)j * (n - 1) / (m - 1);
        long i = (long)pos;
        switch (interp) {
        case 0:
            dst[j] = src[i];
            break;
        case 1: {
            double f = pos - i;
            dst[j] = (float)(src[i] * (1 - f) + src[i + 1 < n ? i + 1 : i] * f);
            break;
        }
        default:
            __builtin_trap();
        }
    }
}
"""


def load() -> ctypes.CDLL:
    digest = hashlib.sha1(SOURCE.encode()).hexdigest()[:12]
    path = f"/tmp/hr_native_{digest}.so"
    if not os.path.exists(path):
        src = f"{path}.{os.getpid()}.cpp"
        with open(src, "w") as f:
            f.write(SOURCE)
        subprocess.run(["g++", "-O1", "-shared", "-fPIC", "-o", f"{path}.{os.getpid()}", src], check=True)
        os.replace(f"{path}.{os.getpid()}", path)
        os.unlink(src)
    lib = ctypes.CDLL(path)
    lib.hr_export_vocab.argtypes = [ctypes.POINTER(ctypes.c_long), ctypes.c_long, ctypes.c_long]
    lib.hr_export_vocab.restype = ctypes.c_long
    fp = ctypes.POINTER(ctypes.c_float)
    lib.hr_resize.argtypes = [fp, ctypes.c_long, fp, ctypes.c_long, ctypes.c_int]
    lib.hr_resize.restype = None
    return lib
