"""A feature file mapped by the program's own loader through libc's mmap (ctypes), viewed as a tensor with
torch.frombuffer; a "release the file early" step munmaps it, and the final evaluation still reads the tensor:
a real SIGSEGV in torch's native code over memory the program unmapped."""

import ctypes
import mmap
import os
import tempfile

import numpy as np
import torch

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]

ROWS, DIM = 512, 256


class MappedFeatures:
    def __init__(self, path: str):
        self.nbytes = os.path.getsize(path)
        fd = os.open(path, os.O_RDONLY)
        self.addr = libc.mmap(None, self.nbytes, mmap.PROT_READ, mmap.MAP_PRIVATE, fd, 0)
        os.close(fd)
        buf = (ctypes.c_float * (self.nbytes // 4)).from_address(self.addr)
        self.tensor = torch.frombuffer(buf, dtype=torch.float32).view(ROWS, DIM)

    def release(self):
        libc.munmap(self.addr, self.nbytes)


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(), "features.f32")
    np.random.default_rng(0).random((ROWS, DIM), dtype=np.float32).tofile(path)
    feats = MappedFeatures(path)
    model = torch.nn.Linear(DIM, 1)
    print(f"train loss {model(feats.tensor[:64]).pow(2).mean().item():.4f}", flush=True)
    feats.release()  # "the file is no longer needed"
    print("released the feature file", flush=True)
    print(f"eval loss {model(feats.tensor[256:]).pow(2).mean().item():.4f}")
