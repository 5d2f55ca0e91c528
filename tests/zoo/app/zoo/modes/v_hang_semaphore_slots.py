"""A prefetcher that bounds in-flight batches with a BoundedSemaphore(2): the main acquires a slot per batch and a
loader thread's done callback releases it, but the callback returns early for an empty batch without releasing,
so after two empty batches the main's acquire() waits forever."""

import threading
from concurrent.futures import ThreadPoolExecutor

SLOTS = threading.BoundedSemaphore(2)
BATCHES = [[1, 2], [], [3], [], [4, 5], [6]]


def load(batch: list) -> list:
    return [x * 2 for x in batch]


def done(future) -> None:
    if not future.result():
        return  # nothing to hand on
    SLOTS.release()


def main() -> None:
    with ThreadPoolExecutor(max_workers=2) as pool:
        for batch in BATCHES:
            SLOTS.acquire()
            pool.submit(load, batch).add_done_callback(done)
    print("all batches loaded")
