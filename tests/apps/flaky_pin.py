"""A stand-in trainer with two planted failures: one that comes every time, one that comes in half the runs.

Its own keys (key=value): start_method, num_workers, pin_memory.
- start_method=fork with workers: the main process segfaults, every time.
- pin_memory=true: a RuntimeError in about half the runs. Which runs is decided by the run's repeat
  number (crashmatrix's CRASHMATRIX_REPEAT: the even ones), so that a test sees the same half every time.
Like many a training script, it logs its settings first, secrets among them (WANDB_API_KEY, HF_TOKEN).
"""

import ctypes
import os
import sys

args = dict(arg.split("=", 1) for arg in sys.argv[1:])
print(f"settings: {args}; WANDB_API_KEY={os.environ.get('WANDB_API_KEY', '-')}", file=sys.stderr)
print(f"logged in to the hub as {os.environ.get('HF_TOKEN', '-')}", file=sys.stderr)
if args["start_method"] == "fork" and args["num_workers"] != "0":
    ctypes.string_at(0)  # a real read of address 0: SIGSEGV
if args["pin_memory"] == "true" and int(os.environ.get("CRASHMATRIX_REPEAT", "0")) % 2 == 0:
    raise RuntimeError("planted: pinned batch lost in transfer")
print("trained with", " ".join(sys.argv[1:]))
