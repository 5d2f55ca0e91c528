"""Clip features computed in a ProcessPoolExecutor; the program gathers every clip's error into one
ExceptionGroup. One clip's header gives a zero data address; its worker reads it through ctypes and dies by
SIGSEGV; the pool breaks, and every pending future fails with BrokenProcessPool, gathered into the group."""

import ctypes
import faulthandler
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor, as_completed


def clip_energy(clip: int) -> float:
    samples = (ctypes.c_float * 256)()
    addr = 0 if clip == 5 else ctypes.addressof(samples)  # clip 5: a header with no data offset
    time.sleep(0.05 * clip)
    frames = (ctypes.c_float * 256).from_address(addr)
    return sum(frames[i] * frames[i] for i in range(256))


def main() -> None:
    faulthandler.enable()
    errors = []
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=2, mp_context=ctx) as pool:
        futures = {pool.submit(clip_energy, c): c for c in range(8)}
        for fut in as_completed(futures):
            try:
                print(f"clip {futures[fut]}: {fut.result():.1f}", flush=True)
            except Exception as e:
                e.add_note(f"clip {futures[fut]}")
                errors.append(e)
    if errors:
        raise ExceptionGroup("feature extraction failed", errors)  # noqa: F821 (a builtin since 3.11)
