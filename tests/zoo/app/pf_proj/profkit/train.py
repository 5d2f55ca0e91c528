"""A small regression model and its loop; the loop profiles a few steps when asked."""

import torch

from profkit import traces
from profkit.timers import timed


def make_model() -> torch.nn.Module:
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))


def batches(n: int, bad_at: int = -1):
    g = torch.Generator().manual_seed(1)
    for i in range(n):
        x = torch.randn(8, 16, generator=g)
        y = torch.randn(8 if i != bad_at else 7, 1, generator=g)
        yield x, y


def step(model, opt, x, y) -> float:
    loss = torch.nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def fit(model, n: int) -> float:
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loss = 0.0
    for x, y in batches(n):
        loss = step(model, opt, x, y)
    return loss


def fit_profiled(model, n: int):
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    with traces.step_profiler() as prof:
        for x, y in batches(n):
            step(model, opt, x, y)
    return prof


@timed
def evaluate(model, n: int) -> dict:
    with torch.no_grad():
        errs = [torch.nn.functional.mse_loss(model(x), y).item() for x, y in batches(n, bad_at=2)]
    return {"mse": sum(errs) / len(errs)}
