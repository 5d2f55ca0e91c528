"""Calibration statistics gathered by a thread: the main hands it batches and a torch.futures.Future for each;
the thread skips a batch with a NaN without completing its future, so the main's `torch.futures.wait_all`
waits for ever (no timeout)."""

import queue
import threading

import torch


def calibrator(jobs: queue.Queue) -> None:
    while True:
        job = jobs.get()
        if job is None:
            return
        batch, fut = job
        if torch.isnan(batch).any():
            continue
        fut.set_result(torch.aminmax(batch))


def main() -> None:
    jobs: queue.Queue = queue.Queue()
    worker = threading.Thread(target=calibrator, args=(jobs,), name="calibrator", daemon=True)
    worker.start()
    futs = []
    for i in range(6):
        batch = torch.randn(32, 8)
        if i == 4:
            batch[3, 2] = float("nan")
        fut = torch.futures.Future()
        futs.append(fut)
        jobs.put((batch, fut))
    jobs.put(None)
    print(f"waiting for the calibration statistics of {len(futs)} batches", flush=True)
    ranges = torch.futures.wait_all(futs)
    print(f"range {min(r[0] for r in ranges):.2f}..{max(r[1] for r in ranges):.2f}")
