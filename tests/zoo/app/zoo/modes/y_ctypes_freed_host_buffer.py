"""A host staging buffer freed (its numpy array deleted) while its address is kept, then uploaded to the GPU
through the CUDA driver API with ctypes: the driver reads unmapped memory and the process dies by SIGSEGV
(tinygrad/tinygrad#2204: a pointer to a deallocated numpy array, a segfault in the runtime's memcpy)."""

import ctypes

import numpy as np
import torch

from zoo.data import quiet_torch


def upload(dst, host_address, nbytes):
    libcuda = ctypes.CDLL("libcuda.so.1")
    copy = libcuda.cuMemcpyHtoD_v2
    copy.argtypes = [ctypes.c_uint64, ctypes.c_void_p, ctypes.c_size_t]
    copy.restype = ctypes.c_int
    status = copy(dst.data_ptr(), host_address, nbytes)
    if status != 0:
        raise RuntimeError(f"cuMemcpyHtoD failed with CUresult {status}")


def main() -> None:
    quiet_torch()
    dst = torch.empty(16 * 2**20, device="cuda")  # CUDA set up, its context current on this thread
    torch.cuda.synchronize()
    staging = np.ones(16 * 2**20, dtype=np.float32)  # 64 MiB: above malloc's mmap threshold, its own mapping
    address, nbytes = staging.ctypes.data, staging.nbytes
    del staging  # the bug: freed (unmapped) while its address is kept
    upload(dst, address, nbytes)
    print(float(dst.sum()))
