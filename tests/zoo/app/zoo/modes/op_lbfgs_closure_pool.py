"""A small sweep of L-BFGS fits, one per seed, in a multiprocessing pool of 2 (fork); the closure runs
forward and backward but does not return the loss, and LBFGS's `float(closure())` fails in the children."""

import multiprocessing as mp

import torch
from torch import nn


def fit(seed: int) -> float:
    torch.manual_seed(seed)
    x = torch.randn(32, 4)
    y = x.sum(1, keepdim=True)
    model = nn.Linear(4, 1)
    opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=10)

    def closure():
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()

    for _ in range(3):
        opt.step(closure)
    return nn.functional.mse_loss(model(x), y).item()


def main() -> None:
    print("fitting 4 seeds in a pool of 2", flush=True)
    with mp.get_context("fork").Pool(2) as pool:
        losses = pool.map(fit, range(4))
    print(losses)
