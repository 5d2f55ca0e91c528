"""Training ends and main() returns, but a metrics-writer thread (not a daemon) still waits on its queue for a
stop sentinel nobody sends: the interpreter waits for it at exit, forever; the loss lines are printed."""

import queue
import threading

import torch


def metrics_writer(q: queue.Queue) -> None:
    while True:
        item = q.get()
        if item is None:
            return
        print(f"loss {item:.4f}", flush=True)


def main() -> None:
    q: queue.Queue = queue.Queue()
    threading.Thread(target=metrics_writer, args=(q,), name="metrics-writer").start()
    w = torch.zeros(4, requires_grad=True)
    for _ in range(3):
        loss = (w - 1).pow(2).sum()
        loss.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
            w.grad.zero_()
        q.put(loss.item())
