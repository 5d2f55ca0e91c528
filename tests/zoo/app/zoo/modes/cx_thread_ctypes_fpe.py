"""A prefetch thread normalises each batch's token counts with the program's own C helper (gcc at run time,
ctypes): mean tokens per sentence as a C integer division; a batch of padding only has 0 sentences, and the
division by zero (SIGFPE) kills the whole process from the thread while the main waits on the queue."""

import ctypes
import os
import queue
import subprocess
import tempfile
import threading

SOURCE = r"""
long tokens_per_sentence(long tokens, long sentences) {
    return tokens / sentences;
}
"""


def build_helper() -> ctypes.CDLL:
    folder = tempfile.mkdtemp(prefix="cxstats-")
    src, lib = os.path.join(folder, "stats.c"), os.path.join(folder, "libstats.so")
    with open(src, "w") as f:
        f.write(SOURCE)
    subprocess.run(["gcc", "-O0", "-shared", "-fPIC", "-o", lib, src], check=True)
    helper = ctypes.CDLL(lib)
    helper.tokens_per_sentence.argtypes = [ctypes.c_long, ctypes.c_long]
    helper.tokens_per_sentence.restype = ctypes.c_long
    return helper


def prefetch(helper: ctypes.CDLL, batches: list, out: queue.Queue) -> None:
    for tokens, sentences in batches:
        out.put(helper.tokens_per_sentence(tokens, sentences))
    out.put(None)


def main() -> None:
    helper = build_helper()
    batches = [(120, 8), (96, 6), (0, 0), (110, 7)]
    out: queue.Queue = queue.Queue()
    threading.Thread(target=prefetch, args=(helper, batches, out), name="prefetch", daemon=True).start()
    while (avg := out.get()) is not None:
        print(f"batch: {avg} tokens per sentence", flush=True)
