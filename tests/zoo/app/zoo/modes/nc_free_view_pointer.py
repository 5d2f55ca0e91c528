"""The program's C decoder hands back buffers it malloc()ed and exports `nc_release` to free them; the program's
cleanup also "releases" a crop it made itself, a numpy view four floats into a numpy array, so glibc's free() gets
a pointer that no malloc returned and aborts the process (`munmap_chunk(): invalid pointer`, SIGABRT)."""

import numpy as np

from zoo.nc_native import load

LIB = load()


def crop(frame: np.ndarray) -> np.ndarray:
    return frame[4:]  # drop the 4-float header


def release_all(buffers: list) -> None:
    for buf in buffers:
        LIB.nc_release(buf.ctypes.data)


def main() -> None:
    frames = [np.random.rand(256).astype(np.float32) for _ in range(3)]
    crops = [crop(f) for f in frames]
    print(f"decoded {len(crops)} crops, mean {float(np.mean([c.mean() for c in crops])):.3f}", flush=True)
    release_all(crops)
    print("released", flush=True)
