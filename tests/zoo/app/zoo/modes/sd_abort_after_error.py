"""A native feature cache of the program's (a C library built at run time and loaded with ctypes) whose library
destructor checks that every handle was released and abort()s otherwise. The run fails in Python first (a bad
label), so the handle is never released, and at exit the destructor aborts."""

import ctypes
import os
import subprocess
import tempfile

import torch

SRC = r"""
#include <stdio.h>
#include <stdlib.h>
static int open_handles;
void cache_open(void) { open_handles++; }
void cache_close(void) { open_handles--; }
__attribute__((destructor)) static void cache_fini(void) {
    if (open_handles) { fprintf(stderr, "featcache: %d handle(s) still open at unload\n", open_handles); abort(); }
}
"""


def build() -> ctypes.CDLL:
    d = tempfile.mkdtemp(prefix="featcache-")
    with open(os.path.join(d, "featcache.c"), "w") as f:
        f.write(SRC)
    so = os.path.join(d, "libfeatcache.so")
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", so, os.path.join(d, "featcache.c")], check=True)
    return ctypes.CDLL(so)


def main() -> None:
    lib = build()
    lib.cache_open()
    labels = torch.tensor([0, 1, 2, 5])
    logits = torch.randn(4, 3)
    loss = torch.nn.functional.cross_entropy(logits, labels)
    lib.cache_close()
    print(f"loss {loss.item():.4f}")
