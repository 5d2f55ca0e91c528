"""Saved activations offloaded into an arena: pack copies each saved tensor into an anonymous mmap with the
program's own small C extension (built with gcc at run time, loaded with ctypes) and keeps its offset; unpack
copies it back with the same extension. The arena is a `with` block around the forward, so it is unmapped before
the backward, and the extension's copy from the arena's old address dies by SIGSEGV."""

import ctypes
import mmap
import os
import subprocess
import tempfile

import torch

C_SOURCE = r"""
#include <string.h>
void arena_copy(char *dst, const char *src, long nbytes) { memcpy(dst, src, (size_t)nbytes); }
"""


def build_ext() -> ctypes.CDLL:
    folder = tempfile.mkdtemp(prefix="arena-ext-")
    src, lib = os.path.join(folder, "arena.c"), os.path.join(folder, "libarena.so")
    with open(src, "w") as f:
        f.write(C_SOURCE)
    subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-o", lib, src], check=True)
    ext = ctypes.CDLL(lib)
    ext.arena_copy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long]
    return ext


EXT = None


def offloaded_loss(model: torch.nn.Module, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    with mmap.mmap(-1, 1 << 22) as arena:
        view = ctypes.c_char.from_buffer(arena)
        base = ctypes.addressof(view)
        del view  # the arena's address is kept, not a view of it
        used = [0]

        def pack(t: torch.Tensor):
            t = t.contiguous()
            n = t.numel() * t.element_size()
            off = used[0]
            EXT.arena_copy(base + off, t.data_ptr(), n)
            used[0] += (n + 63) // 64 * 64
            return off, t.shape, t.dtype

        def unpack(saved) -> torch.Tensor:
            off, shape, dtype = saved
            out = torch.empty(shape, dtype=dtype)
            EXT.arena_copy(out.data_ptr(), base + off, out.numel() * out.element_size())
            return out

        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            loss = torch.nn.functional.mse_loss(model(x), y)
    return loss


def main() -> None:
    global EXT
    EXT = build_ext()
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.Tanh(), torch.nn.Linear(256, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(3):
        loss = offloaded_loss(model, torch.randn(32, 64), torch.randn(32, 1))
        print(f"step {step} forward done, loss {loss.item():.4f}", flush=True)
        opt.zero_grad()
        loss.backward()
        opt.step()
