# A training step that checksums its input batch's bytes (read through ctypes from the tensor's own data pointer)
# for a determinism log, then applies weight norm; a gain saved empty by an old exporter reaches torch._weight_norm.
import ctypes
import zlib

import torch


def checksum(t):
    t = t.contiguous()
    raw = (ctypes.c_char * (t.numel() * t.element_size())).from_address(t.data_ptr())
    return zlib.crc32(bytes(raw))


def step(x, v, g):
    crc = checksum(x)
    w = torch._weight_norm(v, g, 0)
    return (x @ w.t()).sum(), crc


if __name__ == "__main__":
    x = torch.randn(4, 8)
    v = torch.randn(16, 8)
    g = torch.empty(0)  # the exporter's empty gain
    loss, crc = step(x, v, g)
    print(loss.item(), crc)
