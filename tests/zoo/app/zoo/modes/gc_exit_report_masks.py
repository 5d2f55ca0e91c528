"""A training step runs inside a `FailureReport` context manager whose `__exit__` writes a JSON failure report.
The step fails first (one_hot of a label 3 with 3 classes: `RuntimeError: Class values must be smaller than
num_classes.`); while handling it, `__exit__` puts a datetime into json.dumps and fails again
(`TypeError: Object of type datetime is not JSON serializable`). Python prints both, chained; the second is
the last line."""

import json
import os
import tempfile
from datetime import datetime

import torch
import torch.nn.functional as F


class FailureReport:
    def __init__(self, path: str, step: int):
        self.path = path
        self.step = step

    def __enter__(self) -> "FailureReport":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc is not None:
            with open(self.path, "w") as f:
                f.write(json.dumps({"step": self.step, "error": str(exc), "at": datetime.now()}))


def step(model: torch.nn.Linear, x: torch.Tensor, labels: torch.Tensor) -> float:
    target = F.one_hot(labels, num_classes=3).float()
    loss = F.mse_loss(model(x).softmax(-1), target)
    loss.backward()
    return loss.item()


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Linear(5, 3)
    report = os.path.join(tempfile.mkdtemp(), "failure.json")
    for i, labels in enumerate([torch.tensor([0, 1, 2, 1]), torch.tensor([2, 0, 3, 1])]):
        with FailureReport(report, i):
            print(f"step {i}: loss {step(model, torch.randn(4, 5), labels):.4f}", flush=True)
