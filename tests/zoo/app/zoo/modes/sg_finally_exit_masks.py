"""The run's end is reported from a `finally:` that closes the log and exits with a status: `sys.exit(message)`
when the run did not finish. The loss's labels were built as float one-hots of 5 classes for a 4-class head;
cross_entropy raises, and the finally's sys.exit replaces the error: only its message reaches stderr."""

import sys

import torch


def train(state: dict) -> None:
    torch.manual_seed(0)
    model = torch.nn.Linear(16, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        x = torch.randn(8, 16)
        y = torch.nn.functional.one_hot(torch.randint(0, 5, (8,)), 5).float()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        state["step"] = step
    state["done"] = True


def main() -> None:
    state = {"step": -1, "done": False}
    try:
        train(state)
    finally:
        print(f"log closed at step {state['step']}", flush=True)
        if not state["done"]:
            sys.exit(f"training aborted after step {state['step']}, see train.log")
