"""A background prefetcher (the prefetch_generator pattern): a thread iterates the DataLoader and puts
batches on a bounded queue the training loop reads `steps` times. One sample's caption is missing; the
worker's KeyError comes back to the thread, which dies with its traceback printed, and the loop waits in
queue.get() for a batch that will never come."""

import queue
import threading

import torch
from torch.utils.data import DataLoader, Dataset


class Captions(Dataset):
    def __init__(self, n: int):
        self.meta = [{"caption": f"image {i}", "pixels": torch.randn(3, 8, 8)} for i in range(n)]
        del self.meta[21]["caption"]

    def __len__(self) -> int:
        return len(self.meta)

    def __getitem__(self, i):
        m = self.meta[i]
        return m["pixels"], len(m["caption"])


def prefetch(loader: DataLoader, out: queue.Queue) -> None:
    for batch in loader:
        out.put(batch)


def main() -> None:
    loader = DataLoader(Captions(40), batch_size=4, num_workers=2)
    batches: queue.Queue = queue.Queue(maxsize=2)
    threading.Thread(target=prefetch, args=(loader, batches), daemon=True).start()
    steps = len(loader)
    for step in range(steps):
        x, n = batches.get()
        print(f"step {step}/{steps} {x.shape[0]} images", flush=True)
