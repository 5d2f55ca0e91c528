"""A job that dies above a batch size nobody listed: each unit of `batch` holds 1 MB (every page touched),
and above 48 a native read of NULL segfaults, as a kernel's buffer overrun does past its limit.

Alone: `python batch_limit.py batch=48` exits 0; `batch=49` dies of SIGSEGV (exit 139 under a shell).
The matrix (batch_limit.yaml) lists 16, 32, 64, 128: `crashmatrix bisect RUN` finds 48/49.
"""

import ctypes
import sys

args = dict(a.split("=", 1) for a in sys.argv[1:])
batch = int(args["batch"])
held = bytearray(batch * 2**20)
for i in range(0, len(held), 4096):
    held[i] = 1
if batch > 48:
    ctypes.string_at(0)
