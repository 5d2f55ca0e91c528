"""Every parameter frozen: clip_grad_norm_ gets no gradients, returns 0, and the program's log of the norm fails."""

import math

import torch


def main() -> None:
    model = torch.nn.Linear(4, 1)
    for p in model.parameters():
        p.requires_grad_(False)
    grads = [p for p in model.parameters() if p.grad is not None]
    norm = torch.nn.utils.clip_grad_norm_(grads, 1.0)
    print("log grad norm", math.log(norm.item()))
