"""A prefetch thread dies on a truncated zlib chunk; the main then waits on its queue for ever.

Feature chunks are zlib streams; chunk 4 was cut short. The prefetch thread's `zlib.decompress` raises
(`Exception in thread prefetch`), the thread ends without putting anything, and the training loop's `q.get()`
(no timeout) never returns.
"""

import queue
import threading
import zlib

import numpy as np
import torch


def make_chunks(n: int) -> list[bytes]:
    chunks = [zlib.compress(np.full(256, i, dtype=np.float32).tobytes()) for i in range(n)]
    chunks[4] = chunks[4][:-9]
    return chunks


def prefetch(chunks: list[bytes], q: queue.Queue) -> None:
    for blob in chunks:
        feats = np.frombuffer(zlib.decompress(blob), dtype=np.float32)
        q.put(torch.from_numpy(feats.copy()))
    q.put(None)


def main() -> None:
    q: queue.Queue = queue.Queue(maxsize=2)
    threading.Thread(target=prefetch, args=(make_chunks(10), q), name="prefetch", daemon=True).start()
    model = torch.nn.Linear(256, 1)
    step = 0
    while True:
        batch = q.get()
        if batch is None:
            break
        loss = model(batch).pow(2).mean()
        loss.backward()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
        step += 1
