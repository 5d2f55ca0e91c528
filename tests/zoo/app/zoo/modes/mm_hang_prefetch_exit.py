"""A prefetch thread (not a daemon) reads batches out of memory-mapped shards into a bounded queue; the main
trains for max_steps and returns while the thread still has shards to read. The thread blocks in queue.put for
ever, and the interpreter's exit waits for it: `done` is printed, then the program never ends."""

import os
import queue
import tempfile
import threading

import numpy as np
import torch

ROWS, DIM = 256, 32


def prefetch(paths, out: queue.Queue) -> None:
    for path in paths:
        rows = np.memmap(path, dtype=np.float32, mode="r", shape=(ROWS, DIM))
        for start in range(0, ROWS, 16):
            out.put(torch.from_numpy(np.array(rows[start : start + 16])))


def main() -> None:
    folder = tempfile.mkdtemp()
    paths = []
    for k in range(4):
        paths.append(os.path.join(folder, f"shard{k}.f32"))
        np.random.default_rng(k).random((ROWS, DIM), dtype=np.float32).tofile(paths[-1])
    batches: queue.Queue = queue.Queue(maxsize=4)
    threading.Thread(target=prefetch, args=(paths, batches), name="prefetch").start()
    model = torch.nn.Linear(DIM, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(5):  # max_steps
        loss = model(batches.get()).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"done: 5 steps, loss {loss.item():.4f}", flush=True)
