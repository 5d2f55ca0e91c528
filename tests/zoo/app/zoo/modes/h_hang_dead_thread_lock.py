"""A logging thread takes a lock without `with` and dies of an exception before releasing it; the training loop
then waits on the lock for ever."""

import threading
import time

LOCK = threading.Lock()


def flush_metrics(metrics: dict) -> None:
    LOCK.acquire()
    line = ",".join(f"{k}={v:.3f}" for k, v in metrics.items())  # a str value: ValueError in the format
    print(line)
    LOCK.release()


def main() -> None:
    logger = threading.Thread(target=flush_metrics, args=({"loss": 0.5, "lr": "1e-3"},), name="metrics")
    logger.start()
    logger.join()
    time.sleep(0.1)
    with LOCK:  # never acquired: the dead thread holds it
        print("step done")
