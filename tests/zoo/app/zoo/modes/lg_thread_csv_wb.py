"""A metrics writer thread (threading.Thread) appends each epoch's row to metrics.csv, the file opened "wb" as in
the Python 2 recipe the writer was copied from; the thread dies at its first row, and after training the main
reads the (empty) file back to pick the best epoch."""

import csv
import queue
import tempfile
import threading
from pathlib import Path

import pandas as pd
import torch

FIELDS = ["epoch", "loss", "acc"]


def write_rows(path: Path, rows: queue.Queue) -> None:
    with open(path, "wb") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        while (row := rows.get()) is not None:
            writer.writerow(row)
            f.flush()


def main() -> None:
    path = Path(tempfile.mkdtemp(prefix="metrics_")) / "metrics.csv"
    rows: queue.Queue = queue.Queue()
    writer = threading.Thread(target=write_rows, args=(path, rows), name="metrics-writer")
    writer.start()
    g = torch.Generator().manual_seed(0)
    model = torch.nn.Linear(16, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        x = torch.randn(64, 16, generator=g)
        y = (x[:, 0] > 0).long()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc = (model(x).argmax(1) == y).float().mean().item()
        rows.put({"epoch": epoch, "loss": round(loss.item(), 4), "acc": round(acc, 3)})
        print(f"epoch {epoch} loss {loss.item():.4f}", flush=True)
    rows.put(None)
    writer.join()
    history = pd.read_csv(path)
    best = history.loc[history["acc"].idxmax()]
    print(f"best epoch {int(best['epoch'])}")
