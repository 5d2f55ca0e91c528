"""A torch.library op whose CPU kernel reads the packed int4 buffer through ctypes is also registered as the
op's Meta kernel (to make shape inference "work"); counting the model's size on the meta device runs it with
a meta tensor, whose data pointer is 0, and memmove reads address 0.
"""

import ctypes

import torch

LIB = torch.library.Library("tf_int4", "DEF")
LIB.define("unpack(Tensor packed) -> Tensor")


def unpack_kernel(packed: torch.Tensor) -> torch.Tensor:
    out = torch.empty(packed.numel() * 2, dtype=torch.uint8, device=packed.device)
    raw = (ctypes.c_uint8 * packed.numel())()
    ctypes.memmove(raw, packed.data_ptr(), packed.numel())
    for i, byte in enumerate(raw):
        out[2 * i], out[2 * i + 1] = byte & 0xF, byte >> 4
    return out


LIB.impl("unpack", unpack_kernel, "CPU")
LIB.impl("unpack", unpack_kernel, "Meta")


class Int4Linear(torch.nn.Module):
    def __init__(self, n_in: int, n_out: int) -> None:
        super().__init__()
        self.register_buffer("packed", torch.zeros(n_in * n_out // 2, dtype=torch.uint8))
        self.shape = (n_out, n_in)

    def weight(self) -> torch.Tensor:
        return torch.ops.tf_int4.unpack(self.packed).view(self.shape).float()


def main() -> None:
    real = Int4Linear(8, 4)
    print("cpu unpack:", tuple(real.weight().shape), flush=True)
    with torch.device("meta"):
        sized = Int4Linear(4096, 4096)
    print("meta model built; counting unpacked parameters", flush=True)
    print("params:", sized.weight().numel())
