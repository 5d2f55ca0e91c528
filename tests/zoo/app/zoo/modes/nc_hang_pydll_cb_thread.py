"""The program loads its C label scanner with `ctypes.PyDLL` (so the GIL stays held during the call); the scanner
starts 2 pthreads that call a Python callback (CFUNCTYPE) and joins them: the callbacks wait for the GIL, which
the main holds while it waits in pthread_join. Frozen."""

import ctypes

import numpy as np

from zoo.nc_native import load

LIB = load(ctypes.PyDLL)
CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_long, ctypes.c_int)
seen: list = []


@CALLBACK
def on_record(i: int, label: int) -> int:
    seen.append(label)
    return 1


def main() -> None:
    labels = np.arange(64, dtype=np.int32) % 5
    print("scanning labels in C threads", flush=True)
    ok = LIB.nc_scan_threads(labels.ctypes.data_as(ctypes.c_void_p), len(labels), 2, on_record)
    print(f"scanned {ok}", flush=True)
