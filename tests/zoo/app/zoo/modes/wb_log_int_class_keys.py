"""Per-class accuracy logged each epoch as a dict keyed by the class index, as the confusion matrix's rows come."""

import os
import tempfile

import torch
import wandb


def per_class_accuracy(pred: torch.Tensor, y: torch.Tensor, n: int) -> dict:
    return {c: (pred[y == c] == c).float().mean().item() for c in range(n) if (y == c).any()}


def main() -> None:
    os.environ.setdefault("WANDB_MODE", "offline")
    os.environ.setdefault("WANDB_SILENT", "true")
    run = wandb.init(project="wb-cls", dir=tempfile.mkdtemp(prefix="wb_"), config={"classes": 5})
    g = torch.Generator().manual_seed(0)
    net = torch.nn.Linear(10, 5)
    opt = torch.optim.SGD(net.parameters(), lr=0.5)
    for epoch in range(2):
        x = torch.randn(128, 10, generator=g)
        y = x[:, :5].argmax(1)
        loss = torch.nn.functional.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        run.log({"loss": loss.item()})
        print(f"epoch {epoch} loss {loss.item():.4f}", flush=True)
        run.log(per_class_accuracy(net(x).argmax(1), y, 5))
    run.finish()
