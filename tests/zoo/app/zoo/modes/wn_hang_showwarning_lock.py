"""Warnings sent into the metrics file by a replaced `warnings.showwarning`, which takes the metrics writer's
(non-reentrant) lock; the writer, holding that lock, averages each class's losses with `np.mean`, and one class
has none this epoch: numpy's `Mean of empty slice` RuntimeWarning calls the showwarning, which waits on the lock
its own thread holds. Frozen, nothing printed after `writing metrics`."""

import sys
import threading
import warnings

import numpy as np

LOCK = threading.Lock()
ROWS: list[str] = []


def warning_to_metrics(message, category, filename, lineno, file=None, line=None):
    with LOCK:
        ROWS.append(f"# {category.__name__}: {message}")


def write_row(epoch: int, losses: dict[int, list[float]]) -> None:
    with LOCK:
        means = [float(np.mean(losses[c])) for c in sorted(losses)]
        ROWS.append(f"{epoch}," + ",".join(f"{m:.4f}" for m in means))


def main() -> None:
    warnings.showwarning = warning_to_metrics
    rng = np.random.default_rng(0)
    for epoch in range(2):
        labels = rng.integers(0, 3, size=64)  # class 3 never sampled
        losses = {c: list(rng.random(int((labels == c).sum()))) for c in range(4)}
        print(f"epoch {epoch}: writing metrics", flush=True)
        write_row(epoch, losses)
    sys.stdout.write("\n".join(ROWS) + "\n")
