"""The program's background helpers: a metrics writer thread and a loader with persistent workers."""

import queue
import sys
import threading

import torch
from torch.utils.data import DataLoader, TensorDataset

RECORDS: "queue.Queue[dict]" = queue.Queue()


def metrics_writer(path: str) -> None:
    with open(path, "w") as f:
        while True:
            rec = RECORDS.get()
            if not isinstance(rec.get("loss"), float):
                print(f"metrics writer: bad record {rec}, stopping", file=sys.stderr, flush=True)
                sys.exit(2)
            f.write(f"{rec['step']},{rec['loss']:.4f}\n")
            RECORDS.task_done()


def start_writer(path: str) -> threading.Thread:
    t = threading.Thread(target=metrics_writer, args=(path,), name="metrics-writer", daemon=True)
    t.start()
    return t


def make_loader() -> DataLoader:
    g = torch.Generator().manual_seed(0)
    ds = TensorDataset(torch.randn(64, 8, generator=g), torch.randn(64, 1, generator=g))
    return DataLoader(ds, batch_size=16, num_workers=2, persistent_workers=True)
