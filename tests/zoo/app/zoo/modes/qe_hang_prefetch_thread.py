"""Hang: a prefetch thread meets a DataLoader worker's error; the main waits for a batch that never comes.

The loop takes batches from a queue that a background thread fills from a fork DataLoader (2 workers), so
the next batch is ready when the step ends. The label map the main built has no entry for one class
(`"heron"`); the worker that reads that sample raises KeyError, the DataLoader re-raises it in the thread
that iterates it, and the thread dies (`Exception in thread prefetch`). Nothing puts the end marker on the
queue: the main waits in `queue.get()` for ever.
"""

import queue
import threading

import torch
from torch.utils.data import DataLoader, Dataset

CLASSES = {"cat": 0, "dog": 1, "bird": 2}


class Labelled(Dataset):
    def __init__(self):
        names = ["cat", "dog", "bird"] * 10
        names[20] = "heron"  # a class added to the annotations after the label map was frozen
        self.names = names

    def __len__(self) -> int:
        return len(self.names)

    def __getitem__(self, i: int):
        return torch.full((4,), float(i)), CLASSES[self.names[i]]


def prefetch(loader: DataLoader, batches: queue.Queue) -> None:
    for batch in loader:
        batches.put(batch)
    batches.put(None)


def main() -> None:
    loader = DataLoader(Labelled(), batch_size=4, num_workers=2, multiprocessing_context="fork")
    batches: queue.Queue = queue.Queue(maxsize=2)
    threading.Thread(target=prefetch, args=(loader, batches), name="prefetch", daemon=True).start()
    step = 0
    while (batch := batches.get()) is not None:
        x, y = batch
        print(f"step {step} labels {y.tolist()}", flush=True)
        step += 1
    print("epoch done", flush=True)
