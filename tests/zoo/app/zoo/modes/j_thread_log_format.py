"""Metrics rows are written by a one-thread executor so that the loop never waits on the disk; the futures are
checked at each epoch's end. Evaluation adds a per-class accuracy (a 3-element tensor) to the metrics dict, and
the row writer formats every value with `:.4f`, which a 0-d tensor takes and a 3-element one refuses."""

import os
import tempfile
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.nn.functional as F


def write_row(f, step: int, metrics: dict) -> None:
    f.write(f"{step} " + " ".join(f"{k}={v:.4f}" for k, v in metrics.items()) + "\n")
    f.flush()


def per_class_accuracy(logits: torch.Tensor, y: torch.Tensor, classes: int) -> torch.Tensor:
    hit = (logits.argmax(1) == y).float()
    return torch.stack([hit[y == c].mean() if (y == c).any() else hit.new_tensor(0.0) for c in range(classes)])


def main() -> None:
    torch.manual_seed(0)
    x, y = torch.randn(96, 8), torch.randint(0, 3, (96,))
    model = torch.nn.Linear(8, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="metrics")
    with open(os.path.join(tempfile.mkdtemp(prefix="j_metrics-"), "metrics.txt"), "w") as f:
        for epoch in range(2):
            pending = []
            for step in range(6):
                xb, yb = x[step * 16 : (step + 1) * 16], y[step * 16 : (step + 1) * 16]
                loss = F.cross_entropy(model(xb), yb)
                opt.zero_grad()
                loss.backward()
                opt.step()
                pending.append(pool.submit(write_row, f, step, {"loss": loss.detach()}))
            with torch.no_grad():
                logits = model(x)
            metrics = {"val_loss": F.cross_entropy(logits, y), "val_acc_per_class": per_class_accuracy(logits, y, 3)}
            pending.append(pool.submit(write_row, f, epoch, metrics))
            for future in pending:
                future.result()
            print(f"epoch {epoch} written", flush=True)
    pool.shutdown()
