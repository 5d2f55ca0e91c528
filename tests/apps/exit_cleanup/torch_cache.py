"""A program holding torch's work and a native cache whose `__del__` faults as Python tears its module globals
down at exit, with a daemon thread still alive: `python torch_cache.py` prints a sum and dies by SIGSEGV at exit."""

import ctypes
import threading

import torch


class NativeCache:
    def __del__(self):
        ctypes.string_at(0)  # a native read of a handle freed before the cache: a fault at exit


CACHE = NativeCache()
x = torch.randn(256, 256)
print(f"sum {(x @ x).sum().item():.1f}", flush=True)
threading.Thread(target=threading.Event().wait, daemon=True).start()
