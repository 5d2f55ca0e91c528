"""A logging thread drains a bounded queue of metric rows (maxsize 4, so that a slow disk slows the loop instead
of filling memory). It treats the epoch-end marker as its signal to stop (the marker once meant "training done"),
so it returns after epoch 0; in epoch 1 the main's put() fills the queue and waits for a reader that is gone."""

import queue
import threading

import torch
import torch.nn.functional as F

EPOCH_END = object()


def writer(rows: queue.Queue) -> None:
    while True:
        row = rows.get()
        if row is EPOCH_END:
            return
        print(f"log {row}", flush=True)


def main() -> None:
    torch.manual_seed(0)
    rows: queue.Queue = queue.Queue(maxsize=4)
    threading.Thread(target=writer, args=(rows,), name="metrics-writer", daemon=True).start()
    model = torch.nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        for step in range(10):
            loss = F.cross_entropy(model(torch.randn(16, 8)), torch.randint(0, 2, (16,)))
            opt.zero_grad()
            loss.backward()
            opt.step()
            rows.put({"epoch": epoch, "step": step, "loss": round(float(loss), 4)})
        rows.put(EPOCH_END)
        print(f"epoch {epoch} done", flush=True)
