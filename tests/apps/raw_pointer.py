"""A reader whose "no frame" is a null address, made a numpy array through ctypes: numpy's sum then reads
address 64 and the process dies by SIGSEGV inside numpy, on memory the program pointed it to.

Run alone (python -X faulthandler, numpy 2): `Fatal Python error: Segmentation fault`, the thread's frames
numpy/_core/_methods.py:49 in _sum, raw_pointer.py:17 in frame_sum, :26 in <module>; exit status -11. The checksum
line before it prints 3.0.
"""

import ctypes

import numpy as np


def frame_sum(address: int) -> float:
    pointer = ctypes.cast(ctypes.c_void_p(address + 64), ctypes.POINTER(ctypes.c_float))
    frame = np.ctypeslib.as_array(pointer, shape=(256,))
    return float(frame.sum())


def checksum(values) -> float:
    return float(np.asarray(values).sum())


if __name__ == "__main__":
    print(checksum([1.0, 2.0]))
    print(frame_sum(0))  # the reader's "no frame" is a null address
