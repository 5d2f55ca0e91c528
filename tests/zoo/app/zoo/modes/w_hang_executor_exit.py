"""A background metrics poller submitted to a ThreadPoolExecutor used as a context manager: the poller loops until
a stop event is set, and the main sets that event after the `with` block; leaving the block calls
shutdown(wait=True), which joins the poller forever."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

STOP = threading.Event()


def poll_metrics(samples: list) -> None:
    while not STOP.is_set():
        samples.append(time.monotonic())
        STOP.wait(0.05)


def train(samples: list) -> float:
    return sum(range(10_000)) / max(len(samples), 1)


def main() -> None:
    samples: list = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        pool.submit(poll_metrics, samples)
        score = train(samples)
    STOP.set()
    print(f"score {score:.1f} from {len(samples)} samples")
