"""A buffer from a C allocator released twice by the program's cleanup (once by the reader, once by a finaliser):
glibc detects it (`free(): double free detected in tcache 2`) and aborts the process, SIGABRT."""

import ctypes

LIBC = ctypes.CDLL(None)
LIBC.malloc.restype = ctypes.c_void_p
LIBC.free.argtypes = [ctypes.c_void_p]


def release(buf: int) -> None:
    LIBC.free(buf)


def main() -> None:
    buf = LIBC.malloc(64)
    release(buf)  # the reader's close()
    release(buf)  # the finaliser, again
    print("released")
