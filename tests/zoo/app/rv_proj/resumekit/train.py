"""The loop: epochs of a synthetic regression, resumable from an epoch counter."""

import torch
from torch.nn import functional as F


def data(n: int = 64):
    g = torch.Generator().manual_seed(1)
    x = torch.randn(n, 8, generator=g)
    return x, x.sum(1, keepdim=True)


def fit(model, opt, sched, start_epoch, epochs: int) -> int:
    x, y = data()
    for epoch in range(start_epoch, epochs):
        for i in range(0, len(x), 16):
            opt.zero_grad()
            loss = F.mse_loss(model(x[i : i + 16]), y[i : i + 16])
            loss.backward()
            opt.step()
        sched.step()
        print(f"epoch {epoch} loss {loss.item():.4f} lr {opt.param_groups[0]['lr']:.4g}", flush=True)
    return epochs
