"""A prefetch thread parses metric rows from a CSV export; the program's threading.excepthook logs one line
(the thread's name and the error's message, no traceback) so a dead helper "does not spam the log". One row
holds `n/a`; the thread dies on it, and the main's `queue.get(timeout=2)` for the next batch raises Empty."""

import queue
import sys
import threading

import torch

ROWS = [f"{i},{0.1 * i:.2f},{1.0 - 0.05 * i:.2f}" for i in range(12)]
ROWS[5] = "5,n/a,0.75"


def quiet_hook(args: threading.ExceptHookArgs) -> None:
    print(f"warning: thread {args.thread.name} stopped: {args.exc_value}", file=sys.stderr, flush=True)


def prefetch(q: queue.Queue) -> None:
    for row in ROWS:
        step, lr, target = row.split(",")
        q.put((int(step), float(lr), torch.tensor([float(target)])))


def main() -> None:
    threading.excepthook = quiet_hook
    q: queue.Queue = queue.Queue(maxsize=2)
    threading.Thread(target=prefetch, args=(q,), name="prefetch", daemon=True).start()
    w = torch.zeros(1, requires_grad=True)
    for _ in ROWS:
        step, lr, target = q.get(timeout=2)
        loss = (w - target).pow(2).sum()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            w.grad = None
        print(f"step {step} loss {loss.item():.4f}", flush=True)
