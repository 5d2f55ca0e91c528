"""Another job takes the GPU's memory while this one sets up: the first convolution fails in cuDNN's own
set-up (`cuDNN error: CUDNN_STATUS_INTERNAL_ERROR`, cudnnCreate), not as "CUDA out of memory" (forums:
CUDNN_STATUS_INTERNAL_ERROR / NOT_INITIALIZED on a shared GPU).

The other job is a second process here, holding the memory through the CUDA driver as any process would.
This one's own allocator still has room (a warm cache): only cuDNN, which allocates for itself, finds none.
"""

import ctypes
import multiprocessing

import torch

from zoo.data import quiet_torch


def other_job(ready, done) -> None:
    torch.zeros(1, device="cuda")
    libcuda = ctypes.CDLL("libcuda.so.1")
    held, chunk = [], 1 << 30
    while chunk >= 1 << 20:  # everything the driver gives, in shrinking pieces
        ptr = ctypes.c_uint64()
        if libcuda.cuMemAlloc_v2(ctypes.byref(ptr), ctypes.c_size_t(chunk)) == 0:
            held.append(ptr.value)
        else:
            chunk //= 2
    ready.set()
    done.wait(300)


def forward(model, images):
    return model(images)


def main() -> None:
    quiet_torch()
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU()).cuda()
    images = torch.randn(8, 3, 64, 64, device="cuda")
    torch.empty(256 << 20, dtype=torch.uint8, device="cuda")  # freed into this process's cache
    ctx = multiprocessing.get_context("spawn")
    ready, done = ctx.Event(), ctx.Event()
    other = ctx.Process(target=other_job, args=(ready, done), daemon=True)
    other.start()
    ready.wait(120)
    try:
        print(float(forward(model, images).sum()))
    finally:
        done.set()
        other.join(60)
