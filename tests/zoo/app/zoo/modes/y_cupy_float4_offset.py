"""The program's own CUDA kernel (a cupy RawKernel) loads float4 vectors, and is given a tensor sliced one
float in: its address is not 16-byte aligned, so CUDA reports a misaligned address, heard at the next torch op
(PaddlePaddle/Paddle#23090: a float4 kernel given an unaligned pointer; deepspeedai/DeepSpeedExamples#530,
NVIDIA/Fuser#4970: CUDA error: misaligned address)."""

import cupy
import numpy as np
import torch

from zoo.data import quiet_torch

SCALE4 = cupy.RawKernel(
    r"""
extern "C" __global__ void scale4(const float* src, float* dst, int n4) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n4) {
        float4 v = reinterpret_cast<const float4*>(src)[i];
        reinterpret_cast<float4*>(dst)[i] = make_float4(2 * v.x, 2 * v.y, 2 * v.z, 2 * v.w);
    }
}
""",
    "scale4",
)


def scale(x):
    out = torch.empty_like(x)
    n4 = x.numel() // 4
    SCALE4(((n4 + 255) // 256,), (256,), (cupy.asarray(x), cupy.asarray(out), np.int32(n4)))
    return out


def main() -> None:
    quiet_torch()
    frames = torch.randn(1 + 4096 * 64, device="cuda")
    samples = frames[1:]  # the bug: the header float dropped by slicing, 4 bytes off a float4 boundary
    doubled = scale(samples)
    print(float(doubled.sum()))
