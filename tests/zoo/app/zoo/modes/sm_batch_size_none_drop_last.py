"""Pre-batched shards (each item already a batch of 32) loaded with `batch_size=None` to switch off
auto-batching, while the shared loader settings keep `drop_last=True` from the per-sample loaders."""

import torch
from torch.utils.data import DataLoader

LOADER_DEFAULTS = {"num_workers": 0, "drop_last": True, "pin_memory": False}


def main() -> None:
    shards = [torch.randn(32, 8) for _ in range(5)]
    loader = DataLoader(shards, batch_size=None, **LOADER_DEFAULTS)
    for x in loader:
        print(x.shape, flush=True)
