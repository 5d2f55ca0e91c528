"""A search over a multiprocessing.Pool that waits for each trial with `AsyncResult.get(timeout=...)`, a
per-trial time limit; the largest model's trial takes longer than the limit and `get` raises
multiprocessing's TimeoutError, which carries no message, out of the search."""

import multiprocessing as mp

import torch
from torch import nn

WIDTHS = [16, 32, 4096]
LIMIT_S = 3


def objective(width: int) -> float:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(), nn.Linear(width, 1))
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    x = torch.randn(512, 64)
    for _ in range(200):
        loss = (model(x) - x.sum(1, keepdim=True)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def main() -> None:
    with mp.get_context("fork").Pool(2) as pool:
        pending = [(w, pool.apply_async(objective, (w,))) for w in WIDTHS]
        for width, result in pending:
            print(f"width {width}: loss {result.get(timeout=LIMIT_S):.4f}", flush=True)
