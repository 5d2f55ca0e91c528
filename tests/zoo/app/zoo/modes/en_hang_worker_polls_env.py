"""A streaming dataset's 2 workers wait until EN_DATA_READY appears in their environment; the main sets it after
`iter(loader)` has forked them, so they poll for ever and the main waits for its first batch (no timeout)."""

import os
import time

import torch
from torch.utils.data import DataLoader, IterableDataset


class Stream(IterableDataset):
    def __iter__(self):
        while not os.environ.get("EN_DATA_READY"):
            time.sleep(0.1)
        for i in range(16):
            yield torch.full((4,), float(i))


def main() -> None:
    loader = DataLoader(Stream(), batch_size=4, num_workers=2)
    batches = iter(loader)
    os.environ["EN_DATA_READY"] = "1"
    print("waiting for the first batch", flush=True)
    for step, x in enumerate(batches):
        print(f"step {step} {x.sum().item():.1f}", flush=True)
