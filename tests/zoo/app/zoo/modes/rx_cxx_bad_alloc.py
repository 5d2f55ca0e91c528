"""The program's own C++ indexer (g++ at run time, ctypes) builds a std::vector for the whole corpus; the script
first holds itself to the job's memory request (RLIMIT_AS, 256 MiB past what it uses), the vector's 1 GiB is
refused, `new` throws std::bad_alloc through the extern "C" function: terminate, abort."""

import ctypes
import os
import resource
import subprocess
import tempfile

SRC = r"""
#include <vector>
#include <cstddef>
extern "C" double build_index(size_t n) {
    std::vector<float> v(n, 1.0f);
    double s = 0;
    for (size_t i = 0; i < n; i += 4096) s += v[i];
    return s;
}
"""


def compile_indexer() -> ctypes.CDLL:
    d = tempfile.mkdtemp(prefix="rx_cxx_")
    src, lib = os.path.join(d, "indexer.cpp"), os.path.join(d, "libindexer.so")
    with open(src, "w") as f:
        f.write(SRC)
    subprocess.run(["g++", "-O1", "-shared", "-fPIC", "-o", lib, src], check=True)
    so = ctypes.CDLL(lib)
    so.build_index.argtypes = [ctypes.c_size_t]
    so.build_index.restype = ctypes.c_double
    return so


def vm_size() -> int:
    with open("/proc/self/status") as f:
        line = next(x for x in f if x.startswith("VmSize:"))
    return int(line.split()[1]) * 1024


def main() -> None:
    so = compile_indexer()
    resource.setrlimit(resource.RLIMIT_AS, (vm_size() + (256 << 20), resource.RLIM_INFINITY))
    print("indexing the corpus", flush=True)
    print("index", so.build_index(1 << 28), flush=True)
