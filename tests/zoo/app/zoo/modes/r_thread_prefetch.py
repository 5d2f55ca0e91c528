"""A prefetch thread dies on its own error; the main thread then fails on the batch the thread never stored."""

import threading

CACHE: dict = {}


def normalise(values: list) -> list:
    scale = 1.0 / sum(values)
    return [v * scale for v in values]


def prefetch(step: int) -> None:
    CACHE[step] = normalise([0.0, 0.0, 0.0])  # an all-zero sample: ZeroDivisionError in this thread


def main() -> None:
    worker = threading.Thread(target=prefetch, args=(0,), name="prefetch")
    worker.start()
    worker.join()
    print(CACHE[0])
