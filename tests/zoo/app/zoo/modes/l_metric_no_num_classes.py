"""torchmetrics' task wrapper for a multiclass accuracy, built from a dict of metric settings where the number of
classes lives under another key (`n_classes`) than the one torchmetrics takes (`num_classes`)."""

import torch
import torchmetrics

SETTINGS = {"task": "multiclass", "n_classes": 5, "top_k": 1}


def main() -> None:
    n_classes = SETTINGS["n_classes"]
    logits = torch.randn(32, n_classes, generator=torch.Generator().manual_seed(0))
    target = torch.randint(0, n_classes, (32,), generator=torch.Generator().manual_seed(1))
    print("building val metrics", flush=True)
    acc = torchmetrics.Accuracy(task=SETTINGS["task"], top_k=SETTINGS["top_k"])
    acc.update(logits, target)
    print("val/acc", acc.compute().item())
