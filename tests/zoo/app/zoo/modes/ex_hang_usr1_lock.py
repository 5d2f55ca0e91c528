"""A requeue handler (SIGUSR1, as `#SBATCH --signal=USR1@90` sends it) flushes the metrics writer before the
job is requeued; the signal lands while the main thread is inside the writer's own `write_rows`, holding its
lock. The handler runs in that same thread and waits for the lock for ever (threading.Lock is not reentrant).
The scheduler is a child shell that sends SIGUSR1 half a second in."""

import os
import signal
import subprocess
import tempfile
import threading
import time


class MetricsWriter:
    def __init__(self, path: str) -> None:
        self.lock = threading.Lock()
        self.f = open(path, "w")
        self.pending: list = []

    def write_rows(self, rows) -> None:
        with self.lock:
            for row in rows:
                self.f.write(",".join(map(str, row)) + "\n")
                time.sleep(0.05)

    def flush(self) -> None:
        with self.lock:
            self.f.flush()
            os.fsync(self.f.fileno())


WRITER = MetricsWriter(os.path.join(tempfile.gettempdir(), f"ex_metrics_{os.getpid()}.csv"))


def on_requeue(signum, frame) -> None:
    print(f"signal {signum}: flushing metrics before requeue", flush=True)
    WRITER.flush()
    print("flushed; exiting for requeue", flush=True)
    raise SystemExit(0)


def main() -> None:
    signal.signal(signal.SIGUSR1, on_requeue)
    subprocess.Popen(["sh", "-c", f"sleep 0.5; kill -USR1 {os.getpid()}"])
    for epoch in range(3):
        print(f"epoch {epoch}: writing 40 metric rows", flush=True)
        WRITER.write_rows([(epoch, step, 0.5 / (step + 1)) for step in range(40)])
    print("done", flush=True)
