"""An upsampling called through torch.ops with the output size of a 3-d volume on a 2-d image: the ATen op's
check refuses it with a C++ error (c10::Error, raised as RuntimeError)."""

import torch


def upsample(x: torch.Tensor, size: list) -> torch.Tensor:
    return torch.ops.aten.upsample_nearest2d(x, size)


def main() -> None:
    torch.set_num_threads(1)
    print(upsample(torch.randn(1, 3, 8, 8), [16, 16, 16]).shape)
