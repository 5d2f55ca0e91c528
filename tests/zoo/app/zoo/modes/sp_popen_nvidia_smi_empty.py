"""The batch size chosen from the GPU's free memory, read with os.popen("nvidia-smi ...") as many training scripts
do; on a box without the NVIDIA driver the shell prints `nvidia-smi: not found`, os.popen returns an empty string
the program never checks, and int() refuses it."""

import os

import torch
import torch.nn as nn


def free_memory_mib() -> list[int]:
    out = os.popen("nvidia-smi --query-gpu=memory.free --format=csv,noheader,nounits").read()
    return [int(line) for line in out.strip().split("\n")]


def main() -> None:
    model = nn.Linear(32, 4)
    free = free_memory_mib()
    batch = max(8, min(free) // 64)
    x = torch.randn(batch, 32)
    print(f"batch {batch}: loss {model(x).pow(2).mean().item():.4f}")
