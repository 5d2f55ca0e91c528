"""A training loop written for SGD switched to LBFGS by changing the optimizer's name only:
`opt.step()` is called without the closure LBFGS needs to re-evaluate the loss."""

import torch
from torch import nn

OPTIMIZERS = {"sgd": torch.optim.SGD, "lbfgs": torch.optim.LBFGS}


def main() -> None:
    torch.manual_seed(0)
    x = torch.randn(64, 4)
    y = x.sum(1, keepdim=True)
    model = nn.Linear(4, 1)
    opt = OPTIMIZERS["lbfgs"](model.parameters(), lr=0.5)
    for step in range(5):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
