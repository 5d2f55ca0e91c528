"""A small loop over whatever the case prepared."""

import torch
import torch.nn as nn


def fit(batches, in_dim: int, steps: int = 4) -> float:
    model = nn.Sequential(nn.Linear(in_dim, 16), nn.ReLU(), nn.Linear(16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = torch.tensor(0.0)
    for step, (x, y) in enumerate(batches):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step + 1 >= steps:
            break
    return loss.item()
