"""Train the tagger a few steps on synthetic data."""

import torch
import torch.nn.functional as F


def batches(n: int, size: int, features: int = 8):
    g = torch.Generator().manual_seed(0)
    for start in range(0, n, size):
        b = min(size, n - start)
        x = torch.randn(b, features, generator=g)
        yield x, (x[:, 0] > 0).long() + (x[:, 1] > 0).long()


def fit(model, steps: int = 20):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in batches(steps * 16, 16):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"trained {steps} steps, loss {loss.item():.3f}", flush=True)
    return model
