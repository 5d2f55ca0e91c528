"""A stand-in for your train.py: it really segfaults, but only under one combination of settings.

crashmatrix passes each cell's values as key=value arguments (pass_params: overrides).
"""

import ctypes
import sys

args = dict(arg.split("=", 1) for arg in sys.argv[1:])
if args["start_method"] == "fork" and args["num_workers"] == "4" and args["pin_memory"] == "true":
    ctypes.string_at(0)  # a real read of address 0: SIGSEGV
print("trained fine with", " ".join(sys.argv[1:]))
