"""A plain-torch training program that knows nothing of crashmatrix: it reports what it observed.

It takes key=value arguments (its own keys), builds a train and a val DataLoader with its own
settings, iterates a few batches, and writes observed.json into $CRASHMATRIX_CELL_DIR: its argv,
each DataLoader's settings, the start method, and, from inside a DataLoader worker, the sharing
strategy, RLIMIT_NOFILE and cuDNN flags there. tests/test_inject.py runs it under `inject: true`.
"""

import json
import multiprocessing
import os
import resource
import sys

import torch
from torch.utils.data import DataLoader, Dataset


def _as_bool(text: str) -> bool:
    return text.lower() in ("true", "1", "yes")


class Probe(Dataset):
    """Each sample carries what the process that made it saw (a worker's view when there are workers)."""

    def __init__(self, n: int, tensor_kb: int):
        self.n, self.floats = n, tensor_kb * 256

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        info = torch.utils.data.get_worker_info()
        return {
            "x": torch.full((self.floats,), float(i)),
            "in_worker": info is not None,
            "sharing_strategy": torch.multiprocessing.get_sharing_strategy(),
            "nofile": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
            "cudnn_benchmark": torch.backends.cudnn.benchmark,
        }


def _loader_view(loader: DataLoader) -> dict:
    keys = ("num_workers", "pin_memory", "persistent_workers", "prefetch_factor", "timeout")
    return {k: getattr(loader, k) for k in keys}


def main(argv: list) -> None:
    cfg = dict(a.split("=", 1) for a in argv)
    dataset = Probe(int(cfg.get("samples", 8)), int(cfg.get("tensor_kb", 1)))
    # The program's own settings: a crashmatrix knob must override them from outside.
    train = DataLoader(
        dataset,
        batch_size=2,
        num_workers=int(cfg.get("train.num_workers", 2)),
        pin_memory=_as_bool(cfg.get("train.pin_memory", "false")),
        persistent_workers=_as_bool(cfg.get("train.persistent_workers", "true")),
        timeout=60,  # a guard against a stuck worker, as many programs set
    )
    val = DataLoader(dataset, batch_size=4, num_workers=int(cfg.get("val.num_workers", 0)))
    seen = []
    for _epoch in range(int(cfg.get("epochs", 1))):
        for batch in train:
            seen.append({k: v[0] if isinstance(v, list) else v[0].item() for k, v in batch.items() if k != "x"})
    for _batch in val:
        pass
    observed = {
        "argv": argv,
        "train": _loader_view(train),
        "val": _loader_view(val),
        "start_method": multiprocessing.get_start_method(),  # the method its processes get
        "main": {
            "sharing_strategy": torch.multiprocessing.get_sharing_strategy(),
            "nofile": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
            "cudnn_benchmark": torch.backends.cudnn.benchmark,
        },
        "worker": next((s for s in seen if s["in_worker"]), None),
        "wandb_mode": os.environ.get("WANDB_MODE"),
    }
    with open(os.path.join(os.environ.get("CRASHMATRIX_CELL_DIR", "."), "observed.json"), "w") as f:
        json.dump(observed, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
