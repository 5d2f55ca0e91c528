"""Trials in a ProcessPoolExecutor; a pruning callback stops a trial with the search's own exception,
`Pruned(trial, step)`, whose __init__ takes two arguments but passes Exception one message. The worker
pickles the exception to send it back; the parent cannot rebuild it (Exception's args hold only the message),
so the pool breaks on the result instead of reporting the trial as pruned."""

import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor

import torch
from torch import nn


class Pruned(Exception):
    def __init__(self, trial: int, step: int) -> None:
        super().__init__(f"trial {trial} pruned at step {step}")
        self.trial, self.step = trial, step


def objective(number: int) -> float:
    torch.manual_seed(number)
    model = nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1 / (number + 1) ** 3)
    x = torch.randn(64, 8)
    for step in range(30):
        loss = (model(x) - x.sum(1, keepdim=True)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step == 10 and loss.item() > 2.0:
            raise Pruned(number, step)
    return loss.item()


def main() -> None:
    with ProcessPoolExecutor(2, mp_context=mp.get_context("fork")) as ex:
        for number, loss in enumerate(ex.map(objective, range(4))):
            print(f"trial {number}: loss {loss:.4f}", flush=True)
