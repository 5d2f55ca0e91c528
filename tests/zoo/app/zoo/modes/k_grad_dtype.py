"""Gradients accumulated in float32 assigned to a model converted to float64: torch refuses the assignment."""

import torch


def main() -> None:
    model = torch.nn.Linear(4, 2).double()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for p in model.parameters():
        p.grad = torch.zeros(p.shape, dtype=torch.float32)  # the accumulator's dtype
    opt.step()
