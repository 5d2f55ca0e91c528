"""Hang: a reader process feeds the loader's workers through a queue and ends the stream with one sentinel.

The program decodes its shards in one reader process (multiprocessing, fork) that puts records on a queue and,
at the end, a single `None`. The IterableDataset's `__iter__` takes records off that queue until it sees `None`.
With 2 loader workers, the worker that takes the sentinel ends its stream; the other waits in `queue.get()` for
ever. It is alive, so the main's liveness check sees nothing wrong, and the main waits for its next batch.
"""

import multiprocessing as mp

import torch
from torch.utils.data import DataLoader, IterableDataset


def read_shards(queue, n: int) -> None:
    for i in range(n):
        queue.put([float(i), float(i % 5)])
    queue.put(None)  # end of stream


class QueueStream(IterableDataset):
    def __init__(self, queue):
        self.queue = queue

    def __iter__(self):
        while True:
            rec = self.queue.get()
            if rec is None:
                return
            yield torch.tensor(rec)


def main() -> None:
    ctx = mp.get_context("fork")
    queue = ctx.Queue(maxsize=64)
    reader = ctx.Process(target=read_shards, args=(queue, 40), name="shard-reader", daemon=True)
    reader.start()
    loader = DataLoader(QueueStream(queue), batch_size=4, num_workers=2, multiprocessing_context="fork")
    total = 0
    for step, x in enumerate(loader):
        total += len(x)
        print(f"step {step} seen {total}", flush=True)
    print("epoch done", flush=True)
