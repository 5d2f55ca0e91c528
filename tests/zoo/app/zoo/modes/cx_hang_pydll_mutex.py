"""The program's own C event logger (gcc at run time) loaded with ctypes.PyDLL, so every call HOLDS the GIL; its
`log_batch` takes the logger's pthread mutex and, for a batch over the size limit, calls `log_warn`, which takes
the same (non-recursive) mutex again: the main blocks in pthread_mutex_lock for ever, holding the GIL, so the
program's heartbeat thread stops printing too."""

import ctypes
import os
import subprocess
import tempfile
import threading
import time

SOURCE = r"""
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long events = 0;

void log_warn(const char *what) {
    pthread_mutex_lock(&lock);
    events++;
    fprintf(stderr, "warn: %s\n", what);
    pthread_mutex_unlock(&lock);
}

void log_batch(long size) {
    pthread_mutex_lock(&lock);
    events++;
    if (size > 64) {
        log_warn("batch over the size limit");
    }
    pthread_mutex_unlock(&lock);
}
"""


def build_logger() -> ctypes.PyDLL:
    folder = tempfile.mkdtemp(prefix="cxlog-")
    src, lib = os.path.join(folder, "evlog.c"), os.path.join(folder, "libevlog.so")
    with open(src, "w") as f:
        f.write(SOURCE)
    subprocess.run(["gcc", "-O0", "-shared", "-fPIC", "-pthread", "-o", lib, src], check=True)
    logger = ctypes.PyDLL(lib)
    logger.log_batch.argtypes = [ctypes.c_long]
    return logger


def heartbeat() -> None:
    while True:
        print("heartbeat", flush=True)
        time.sleep(0.5)


def main() -> None:
    logger = build_logger()
    threading.Thread(target=heartbeat, daemon=True).start()
    for step, size in enumerate([32, 48, 96, 32]):
        time.sleep(0.3)
        logger.log_batch(size)
        print(f"step {step}: logged a batch of {size}", flush=True)
