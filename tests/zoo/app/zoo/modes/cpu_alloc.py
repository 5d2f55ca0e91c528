"""A batch of 2**46 floats asked of torch on CPU: its allocator fails (DefaultCPUAllocator)."""

import torch

from zoo.data import quiet_torch


def allocate_batch(n: int):
    return torch.empty(n, dtype=torch.float32)


def main() -> None:
    quiet_torch()
    print(allocate_batch(1 << 46).shape)
