"""A prefetch thread prepares batches with a compiled (fullgraph=True) preprocessing function that reads the
class-name file with `open()` inside the compiled region; dynamo refuses the builtin under fullgraph, the thread
dies, and the main, after waiting 5 s for a batch, gives up."""

import os
import queue
import tempfile
import threading

import torch

LABELS = os.path.join(tempfile.gettempdir(), "cp_thread_open_fullgraph_labels.txt")


def preprocess(x: torch.Tensor) -> torch.Tensor:
    with open(LABELS) as f:
        n_classes = len(f.read().split())
    return (x - x.mean()) / (x.std() + 1e-6) * n_classes


preprocess_c = torch.compile(preprocess, backend="eager", fullgraph=True)


def prefetch(q: queue.Queue) -> None:
    g = torch.Generator().manual_seed(0)
    for _ in range(4):
        q.put(preprocess_c(torch.randn(8, 16, generator=g)))


def main() -> None:
    with open(LABELS, "w") as f:
        f.write("cat dog bird\n")
    q = queue.Queue(maxsize=2)
    threading.Thread(target=prefetch, args=(q,), daemon=True, name="prefetch").start()
    model = torch.nn.Linear(16, 3)
    for step in range(4):
        try:
            x = q.get(timeout=5)
        except queue.Empty:
            raise RuntimeError("no batch from the prefetch thread in 5 s") from None
        print(f"step {step} out {tuple(model(x).shape)}", flush=True)
