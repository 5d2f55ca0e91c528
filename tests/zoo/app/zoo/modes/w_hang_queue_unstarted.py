"""A loader thread is meant to fill a queue of batches; the refactor that made the thread a daemon dropped its
`.start()`, so the main's first queue.get() waits forever."""

import queue
import threading


def produce(q: queue.Queue, n: int) -> None:
    for i in range(n):
        q.put([i] * 4)
    q.put(None)


def main() -> None:
    batches: queue.Queue = queue.Queue(maxsize=8)
    loader = threading.Thread(target=produce, args=(batches, 10), daemon=True)
    total = 0
    while (batch := batches.get()) is not None:
        total += sum(batch)
    print(f"total {total} ({loader.name})")
