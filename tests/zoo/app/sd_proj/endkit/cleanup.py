"""The program's end-of-run cleanups: a run log, an exit summary, a flush of the metrics queue, a native helper."""

import atexit
import ctypes
import os
import subprocess
import tempfile

from endkit import workers

STATS: dict = {}

NATIVE_SRC = r"""
#include <stdlib.h>
#include <string.h>
static char *ring;
static void flush_ring(void) { memset(ring, 0, 4096); }
void ring_open(void) { ring = malloc(4096); atexit(flush_ring); }
void ring_close(void) { free(ring); ring = NULL; }
"""


class RunLog:
    def __init__(self, run_dir: str) -> None:
        self.path = os.path.join(run_dir, "log.txt")
        self.fh = open(self.path, "a")

    def write(self, line: str) -> None:
        self.fh.write(line + "\n")

    def __del__(self) -> None:
        self.fh.close()


def write_summary() -> None:
    print(f"summary: {STATS['steps']} steps, best val {STATS['best_val']:.4f}", flush=True)


def register_summary() -> None:
    atexit.register(write_summary)


def flush_metrics() -> None:
    print("flushing metrics", flush=True)
    workers.RECORDS.join()


def register_flush() -> None:
    atexit.register(flush_metrics)


def load_ring() -> ctypes.CDLL:
    d = tempfile.mkdtemp(prefix="endkit-")
    src = os.path.join(d, "ring.c")
    with open(src, "w") as f:
        f.write(NATIVE_SRC)
    so = os.path.join(d, "libendring.so")
    subprocess.run(["gcc", "-shared", "-fPIC", "-O0", "-o", so, src], check=True)
    lib = ctypes.CDLL(so)
    lib.ring_open()
    return lib
