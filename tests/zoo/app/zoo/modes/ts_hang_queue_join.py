"""CSV chunks of a long export parsed by a consumer thread from a `queue.Queue`; the main waits with `q.join()`.
One chunk holds `n/a` in the sales column: the consumer's `float()` raises, the thread dies (Python prints its
traceback), `task_done()` is never called for that chunk and the main's `join()` waits for ever."""

import queue
import threading

CHUNKS = [[f"2024-03-01 {h:02d}:00,{50 + h}" for h in range(c * 6, c * 6 + 6)] for c in range(4)]
CHUNKS[2][3] = "2024-03-01 15:00,n/a"


def consume(q: queue.Queue, totals: list) -> None:
    while True:
        chunk = q.get()
        totals.append(sum(float(line.split(",")[1]) for line in chunk))
        q.task_done()


def main() -> None:
    q: queue.Queue = queue.Queue()
    totals: list = []
    threading.Thread(target=consume, args=(q, totals), name="csv-consumer", daemon=True).start()
    for chunk in CHUNKS:
        q.put(chunk)
    print("waiting for the consumer to parse every chunk", flush=True)
    q.join()
    print("totals", totals)
