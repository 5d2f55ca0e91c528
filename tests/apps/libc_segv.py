"""A torch program that segfaults inside libc: strlen on an invalid pointer, through ctypes."""

import ctypes

import torch

print("torch", torch.__version__, flush=True)
ctypes.CDLL("libc.so.6").strlen(ctypes.c_void_p(8))
