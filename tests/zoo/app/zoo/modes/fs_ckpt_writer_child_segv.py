"""The main trains, then hands its state to a forked checkpoint writer; the writer dies by SIGSEGV in libc.

The writer stages the flat state in a buffer from libc's malloc, sized by a header computation done in a C int
(the byte count less the header, stored through ctypes.c_int32 in the packed layout): a 32-bit field that the
program's own size formula made negative; malloc of it (as size_t, about 2**64) returns NULL, which the writer does
not check, and memmove into it faults. The main sees the writer's exit code and raises.
"""

import ctypes
import faulthandler
import multiprocessing as mp
import os
import tempfile

import torch

_libc = ctypes.CDLL(None)
_libc.malloc.restype = ctypes.c_void_p
_libc.malloc.argtypes = [ctypes.c_size_t]
_libc.memmove.restype = ctypes.c_void_p
_libc.memmove.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
HEADER = 64


def stage(payload: bytes) -> int:
    size = ctypes.c_int32(len(payload) - HEADER * 2**20).value  # the header's unit read as MiB, not bytes
    dst = _libc.malloc(size & (2**64 - 1))
    _libc.memmove(dst, payload, len(payload))
    return dst


def writer(state: dict, path: str) -> None:
    flat = torch.cat([t.reshape(-1) for t in state.values()])
    stage(flat.numpy().tobytes())
    with open(path, "wb") as f:
        f.write(flat.numpy().tobytes())


def main() -> None:
    faulthandler.enable()
    torch.manual_seed(0)
    model = torch.nn.Linear(32, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(5):
        loss = model(torch.randn(8, 32)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    path = os.path.join(tempfile.mkdtemp(prefix="fs_ckpt_"), "model.flat")
    proc = mp.get_context("fork").Process(target=writer, args=(model.state_dict(), path), name="ckpt-writer")
    proc.start()
    proc.join()
    if proc.exitcode != 0:
        raise RuntimeError(f"checkpoint writer exited with code {proc.exitcode}; {path} not written")
    print(f"saved {path}", flush=True)
