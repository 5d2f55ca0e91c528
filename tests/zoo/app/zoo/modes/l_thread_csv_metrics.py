"""A metrics writer thread appends each epoch's metrics to metrics.csv with csv.DictWriter, its columns fixed
from the first epoch's keys; validation starts at epoch 2 (val_check_interval), adding `val/acc`. The main waits
for each write's future."""

import csv
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor


class CsvMetrics:
    def __init__(self, path: str):
        self.path = path
        self.writer = None
        self.file = open(path, "w", newline="")

    def write(self, row: dict) -> None:
        if self.writer is None:
            self.writer = csv.DictWriter(self.file, fieldnames=list(row))
            self.writer.writeheader()
        self.writer.writerow(row)
        self.file.flush()


def main() -> None:
    out = CsvMetrics(os.path.join(tempfile.mkdtemp(), "metrics.csv"))
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="metrics") as pool:
        for epoch in range(4):
            row = {"epoch": epoch, "train/loss": 1.0 / (epoch + 1)}
            if epoch >= 2:
                row["val/acc"] = 0.5 + 0.1 * epoch
            print(f"epoch {epoch} {row}", flush=True)
            pool.submit(out.write, row).result()
