"""The loop: batches of synthetic features, cross-entropy, SGD."""

import torch
from torch import nn


def batches(n: int = 6, dim: int = 16, classes: int = 4, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(32, dim, generator=g), torch.randint(0, classes, (32,), generator=g)) for _ in range(n)]


def fit(model: nn.Module, loader, dtype: torch.dtype) -> float:
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = torch.tensor(0.0)
    for step, (x, y) in enumerate(loader):
        x = x.to(dtype)
        if step == 0:
            with torch.no_grad():
                model.whiten.fit(x)
        loss = nn.functional.cross_entropy(model(x).float(), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.3f}", flush=True)
    return loss.item()
