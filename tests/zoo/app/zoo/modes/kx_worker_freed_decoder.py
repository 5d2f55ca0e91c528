"""fork DataLoader, 1 worker: a zero-copy tensor over a C buffer the decoder already freed; the worker dies.

The dataset decodes each sample into a buffer from the C allocator (ctypes; a stand-in for a native decoder's
frame pool), wraps it without a copy (`np.ctypeslib.as_array` then `torch.from_numpy`) and hands the buffer back
to the allocator before returning the tensor. The 64 MiB buffer is above glibc's mmap threshold, so `free`
unmaps it at once; the row summary that follows reads the unmapped pages: SIGSEGV in the worker, first item.
"""

import ctypes

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

LIBC = ctypes.CDLL(None)
LIBC.malloc.restype = ctypes.c_void_p
LIBC.malloc.argtypes = [ctypes.c_size_t]
LIBC.free.argtypes = [ctypes.c_void_p]
N = 16 * 1024 * 1024  # float32 elements: 64 MiB


class DecodedFrames(Dataset):
    def __len__(self) -> int:
        return 8

    def decode(self, i: int) -> tuple[int, np.ndarray]:
        ptr = LIBC.malloc(N * 4)
        arr = np.ctypeslib.as_array(ctypes.cast(ptr, ctypes.POINTER(ctypes.c_float)), shape=(N,))
        arr[:] = float(i)
        return ptr, arr

    def __getitem__(self, i: int) -> torch.Tensor:
        ptr, arr = self.decode(i)
        frame = torch.from_numpy(arr)  # no copy: the tensor reads the decoder's buffer
        LIBC.free(ptr)  # hand the buffer back to the decoder's pool
        return frame.reshape(4096, -1).amax(1)


def main() -> None:
    loader = DataLoader(DecodedFrames(), batch_size=2, num_workers=1, multiprocessing_context="fork")
    for step, batch in enumerate(loader):
        print(f"step {step} mean {batch.mean().item():.2f}", flush=True)
