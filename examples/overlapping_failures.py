"""A stand-in for your train.py with two planted failures, one hiding the other.

- It really segfaults (checked first) with start_method=fork + num_workers=4 + pin_memory=true +
  prefetch_factor=4.
- It raises ValueError with persistent_workers=true + wandb=offline, except where the segfault came first.

`crashmatrix explain` must name both conditions exactly: the cell where both hold says nothing about the
ValueError (it is masked by the crash), and is no counter-example to it.
"""

import ctypes
import sys

args = dict(arg.split("=", 1) for arg in sys.argv[1:])
if (args["start_method"], args["num_workers"], args["pin_memory"], args["prefetch_factor"]) == (
    "fork",
    "4",
    "true",
    "4",
):
    ctypes.string_at(0)  # a real read of address 0: SIGSEGV
if args["persistent_workers"] == "true" and args["wandb"] == "offline":
    raise ValueError("planted: persistent workers with wandb offline")
print("trained fine with", " ".join(sys.argv[1:]))
