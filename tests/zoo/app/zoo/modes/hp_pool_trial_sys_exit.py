"""Trials in a ProcessPoolExecutor, each a training script turned into a function; the script's guard for a
diverged run, `sys.exit(...)` when the loss is not finite, stayed in. The sampled lr of one trial is large
enough to diverge; the worker's SystemExit is sent back like any exception and re-raised in the parent by
`future.result()`, which ends the whole search with the trial's message and status 1."""

import math
import multiprocessing as mp
import sys
from concurrent.futures import ProcessPoolExecutor

import torch
from torch import nn

LRS = [0.01, 3.0, 0.05, 0.1]


def objective(number: int) -> float:
    torch.manual_seed(number)
    model = nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=LRS[number])
    x = torch.randn(64, 8) * 4
    for step in range(50):
        loss = (model(x) - x.sum(1, keepdim=True)).pow(2).mean()
        if not math.isfinite(loss.item()):
            sys.exit(f"trial {number}: loss is {loss.item()} at step {step}, stopping")
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def main() -> None:
    with ProcessPoolExecutor(2, mp_context=mp.get_context("fork")) as ex:
        futures = [ex.submit(objective, n) for n in range(len(LRS))]
        for number, future in enumerate(futures):
            print(f"trial {number}: loss {future.result():.4f}", flush=True)
