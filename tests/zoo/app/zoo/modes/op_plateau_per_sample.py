"""Validation loss computed with `reduction="none"` (for a per-sample histogram) and handed as is to
`ReduceLROnPlateau.step()`, which needs one number."""

import torch
from torch import nn
from torch.optim.lr_scheduler import ReduceLROnPlateau


def validate(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    with torch.no_grad():
        return nn.functional.mse_loss(model(x), y, reduction="none").squeeze(1)


def main() -> None:
    torch.manual_seed(0)
    x, xv = torch.randn(64, 4), torch.randn(16, 4)
    y, yv = x.sum(1, keepdim=True), xv.sum(1, keepdim=True)
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    sched = ReduceLROnPlateau(opt, mode="min", patience=2)
    for epoch in range(3):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        val = validate(model, xv, yv)
        print(f"epoch {epoch} val max {val.max().item():.4f}", flush=True)
        sched.step(val)
