"""The program's own NaN guard: a log of a negative prediction makes the loss NaN and the guard raises."""

import torch


def main() -> None:
    torch.manual_seed(0)
    pred = torch.tensor([0.5, -0.25, 0.75], requires_grad=True)
    loss = -torch.log(pred).mean()
    if torch.isnan(loss):
        raise FloatingPointError("loss is NaN at step 0")
    loss.backward()
