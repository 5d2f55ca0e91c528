"""Checkpoints: a flat float32 shard file per model, read by torch.load on rank 0 and mapped (zero copy) elsewhere."""

import ctypes
import os

import torch

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
_libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
PROT_READ, MAP_PRIVATE = 1, 2


def write_flat(model: torch.nn.Module, path: str) -> None:
    flat = torch.cat([p.detach().reshape(-1) for p in model.parameters()])
    with open(path, "wb") as f:
        f.write(flat.numpy().tobytes())


def split(flat: torch.Tensor, model: torch.nn.Module) -> dict:
    out, at = {}, 0
    for name, p in model.named_parameters():
        out[name] = flat[at : at + p.numel()].view_as(p)
        at += p.numel()
    return out


def map_flat(path: str, model: torch.nn.Module) -> dict:
    """Views of the file's bytes, no copy; the mapping is released once the views are made."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        addr = _libc.mmap(None, size, PROT_READ, MAP_PRIVATE, f.fileno(), 0)
    try:
        flat = torch.frombuffer((ctypes.c_float * (size // 4)).from_address(addr), dtype=torch.float32)
        return split(flat, model)
    finally:
        _libc.munmap(addr, size)


def read_flat(path: str, model: torch.nn.Module) -> dict:
    with open(path, "rb") as f:
        flat = torch.frombuffer(bytearray(f.read()), dtype=torch.float32)
    return split(flat, model)


def restore(model: torch.nn.Module, path: str, rank: int) -> None:
    shard = read_flat(path, model) if rank == 0 else map_flat(path, model)
    with torch.no_grad():
        for name, p in model.named_parameters():
            p.copy_(shard[name])


def load_full(model: torch.nn.Module, path: str) -> None:
    """Resume from the single-file checkpoint the pretraining run wrote with torch.save(model.state_dict())."""
    model.load_state_dict(torch.load(path))
