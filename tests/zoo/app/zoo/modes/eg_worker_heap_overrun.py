"""An IterableDataset's generator decodes records into a native buffer sized from the header; one record is
longer than its header says. The overrun goes unnoticed until the worker's next malloc, where glibc aborts
(`malloc(): invalid size (unsorted)`): a DataLoader worker dies by SIGABRT, and the main reports it."""

import ctypes
import faulthandler

import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info

LIBC = ctypes.CDLL(None)
LIBC.malloc.restype = ctypes.c_void_p
LIBC.malloc.argtypes = [ctypes.c_size_t]
LIBC.free.argtypes = [ctypes.c_void_p]


def records(shard: int):
    for i in range(6):
        declared = 4096
        payload = bytes([i]) * (declared + 32 if (shard, i) == (1, 3) else declared)  # header written before a fix
        yield declared, payload


class Decoded(IterableDataset):
    def __iter__(self):
        shard = get_worker_info().id
        for declared, payload in records(shard):
            buf = LIBC.malloc(declared)
            ctypes.memmove(buf, payload, len(payload))
            scratch = LIBC.malloc(8192)
            out = torch.frombuffer(bytearray(ctypes.string_at(buf, 64)), dtype=torch.uint8).float()
            LIBC.free(scratch)
            LIBC.free(buf)
            yield out


def main() -> None:
    faulthandler.enable()
    for step, x in enumerate(DataLoader(Decoded(), batch_size=2, num_workers=2)):
        print(f"step {step} mean {x.mean().item():.2f}", flush=True)
