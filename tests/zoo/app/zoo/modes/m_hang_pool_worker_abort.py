"""multiprocessing.Pool.map; one worker's native resize (ctypes) calls abort() on a corrupt image. The pool
replaces the dead worker, the task is lost, and map() waits for its result forever."""

import ctypes
import multiprocessing as mp

LIBC = ctypes.CDLL(None)


def resize(i: int) -> int:
    if i == 3:
        LIBC.abort()  # as a C image library's assert() does on a corrupt header
    return i * 2


def main() -> None:
    with mp.get_context("fork").Pool(2) as pool:
        print(sum(pool.map(resize, range(8))))
