"""A prefetch thread decodes samples with a per-thread decoder kept in `threading.local()`; the decoder was set up
in the main thread only, so the prefetch thread has none. The thread dies first (`Exception in thread prefetch`);
the main, waiting for batch 0, finds the thread gone and stops.
"""

import queue
import threading

import torch

_local = threading.local()


class Decoder:
    def __init__(self, dim: int) -> None:
        self.dim = dim

    def __call__(self, i: int) -> torch.Tensor:
        return torch.full((self.dim,), float(i))


def init_decoder(dim: int = 8) -> None:
    _local.decoder = Decoder(dim)


def decode(i: int) -> torch.Tensor:
    return _local.decoder(i)


def prefetch(out: queue.Queue, n: int) -> None:
    for i in range(n):
        out.put(decode(i))


def next_batch(q: queue.Queue, thread: threading.Thread, step: int) -> torch.Tensor:
    while True:
        try:
            return q.get(timeout=0.5)
        except queue.Empty:
            if not thread.is_alive():
                raise RuntimeError(f"prefetch thread died before delivering batch {step}") from None


def main() -> None:
    init_decoder()
    print(f"decoder ready: {decode(0).shape}", flush=True)
    q: queue.Queue = queue.Queue(maxsize=4)
    thread = threading.Thread(target=prefetch, args=(q, 6), name="prefetch", daemon=True)
    thread.start()
    for step in range(6):
        print(f"step {step}: {float(next_batch(q, thread, step).sum())}", flush=True)
