"""A dynamic-batching predictor: a batcher thread collects requests until its batch of 8 is full (no flush
timeout); 5 clients send one request each and wait on their futures, so neither side moves."""

import queue
import threading
from concurrent.futures import Future

import torch

MAX_BATCH = 8


def batcher(requests: queue.Queue, model: torch.nn.Module) -> None:
    while True:
        batch = []
        while len(batch) < MAX_BATCH:
            batch.append(requests.get())
        xs = torch.stack([x for x, _ in batch])
        with torch.no_grad():
            out = model(xs)
        for (_, fut), row in zip(batch, out):
            fut.set_result(row)


def main() -> None:
    model = torch.nn.Linear(4, 2).eval()
    requests: queue.Queue = queue.Queue()
    threading.Thread(target=batcher, args=(requests, model), daemon=True, name="batcher").start()
    futures = []
    for _ in range(5):
        fut: Future = Future()
        requests.put((torch.randn(4), fut))
        futures.append(fut)
    print("5 requests sent, waiting for answers", flush=True)
    for fut in futures:
        print(fut.result().tolist(), flush=True)
