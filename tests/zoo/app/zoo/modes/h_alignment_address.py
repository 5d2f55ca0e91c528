"""The program's own check that a buffer handed to a SIMD kernel is 64-byte aligned; its message carries the
buffer's address, different every run."""

import torch


def check_aligned(t: torch.Tensor) -> None:
    if t.data_ptr() % 64:
        raise ValueError(f"buffer at {hex(t.data_ptr())} is not 64-byte aligned")


def main() -> None:
    torch.set_num_threads(1)
    base = torch.zeros(1024, dtype=torch.uint8)
    check_aligned(base[1 + torch.randint(0, 62, ()).item() :])  # a slice starts mid-line
