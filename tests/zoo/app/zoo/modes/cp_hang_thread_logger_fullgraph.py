"""A metrics thread summarises each step's activations with a compiled (fullgraph=True) function that also
writes a warning through `logging` when they blow up; dynamo refuses the logger call under fullgraph and the
thread dies. The main waits for each summary on a queue with no timeout: it waits for ever."""

import logging
import queue
import threading

import torch

log = logging.getLogger("metrics")


def summarize(h: torch.Tensor) -> torch.Tensor:
    s = torch.stack([h.mean(), h.std(), h.abs().max()])
    log.warning("activation summary %s", tuple(h.shape))
    return s


summarize_c = torch.compile(summarize, backend="eager", fullgraph=True)


def metrics(inbox: queue.Queue, outbox: queue.Queue) -> None:
    while True:
        h = inbox.get()
        outbox.put(summarize_c(h))


def main() -> None:
    inbox, outbox = queue.Queue(), queue.Queue()
    threading.Thread(target=metrics, args=(inbox, outbox), daemon=True, name="metrics").start()
    model = torch.nn.Linear(16, 16)
    for step in range(4):
        h = model(torch.randn(8, 16))
        inbox.put(h.detach())
        print(f"step {step}: waiting for its summary", flush=True)
        print(f"step {step}: {outbox.get().tolist()}", flush=True)
