"""A Triton kernel of the program's own given a row stride in bytes where it counts elements: it reads far
past the tensor, and CUDA reports an illegal memory access at the host's next wait, in a later torch op."""

import torch
import triton
import triton.language as tl

from zoo.data import quiet_torch


@triton.jit
def _double_rows(src, dst, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    values = tl.load(src + row * stride + cols, mask=mask)
    tl.store(dst + row * stride + cols, values * 2, mask=mask)


def double_rows(x):
    out = torch.empty_like(x)
    stride = x.stride(0) * x.element_size()  # the bug: bytes, where the kernel's pointers count elements
    _double_rows[(x.shape[0],)](x, out, x.shape[1], stride, BLOCK=1024)
    return out


def main() -> None:
    quiet_torch()
    x = torch.randn(65536, 1024, device="cuda")
    doubled = double_rows(x)
    print(float(doubled.sum()))
