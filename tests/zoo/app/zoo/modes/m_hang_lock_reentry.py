"""A metrics writer guarded by a threading.Lock; flush() is called from inside log() while the lock is held,
and flush() takes the same (non-reentrant) lock: the main thread waits on itself forever."""

import threading


class Metrics:
    def __init__(self, flush_every: int = 4):
        self.lock = threading.Lock()
        self.rows = []
        self.flush_every = flush_every

    def log(self, step: int, loss: float) -> None:
        with self.lock:
            self.rows.append((step, loss))
            if len(self.rows) >= self.flush_every:
                self.flush()

    def flush(self) -> None:
        with self.lock:
            print(len(self.rows), "rows")
            self.rows.clear()


def main() -> None:
    metrics = Metrics()
    for step in range(10):
        metrics.log(step, 1.0 / (step + 1))
