"""glibc aborting on a corrupt heap under inject ends the cell by SIGABRT, as alone, and is told by glibc's words.

crashmatrix turns torch's fatal-signal handler on in every cell (its native backtrace names the library a crash
died in). glibc aborts on a corrupt heap holding malloc's lock, and that handler allocates: the cell then
waited on the lock until its timeout, a hang where the program alone dies at once (the twenty-first held-out
set's i_heap_overrun, HELDOUT21.md). SIGABRT now keeps the handler it had (faulthandler's).

Run alone first (2026-11-30, glibc 2.36, torch 2.13.0+cpu): `python heap.py` printed `free(): invalid next size
(normal)` and died by SIGABRT (shell status 134) in 1.1 s; pack() at heap.py:13 frees a 2000-byte buffer it
wrote 2048 bytes into. Under crashmatrix before this fix: timeout after 20 s, `hang in heap.py:pack`.

Cost: one live cell that imports torch."""

import pytest
from conftest import one_injected_cell

pytestmark = pytest.mark.slow  # a live cell that imports torch

PROGRAM = """\
import ctypes

import torch  # noqa: F401  (a training program imports torch: its fatal-signal handler is then loaded)

libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]


def pack(row_len):
    buf = libc.malloc(2000)  # past tcache's sizes: freed under the arena's lock
    ctypes.memset(buf, 1, row_len)  # the row is longer than the buffer: over the next chunk's header
    libc.free(buf)


if __name__ == "__main__":
    pack(2048)
    print("packed")
"""


def test_a_glibc_heap_check_abort_under_inject_is_a_crash_by_sigabrt_told_by_glibc(tmp_path):
    row, _cell = one_injected_cell(tmp_path, "heap", PROGRAM, timeout=30)
    assert (row["outcome"], row["signal"], row["error"]) == ("crash", "SIGABRT", "free(): invalid next size (normal)")
    assert row["signature"] == "glibc_heap_check in heap.py:pack", row
    assert row["where"] == "heap.py:13 in pack", row
