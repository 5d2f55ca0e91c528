"""A training loop's NaN guard: log of a negative prediction makes the loss NaN, and the guard raises."""

import math

import torch

from zoo.data import quiet_torch


def train_step(step: int, x) -> float:
    loss = torch.log(x - step).mean()  # x - step goes negative at step 2
    if not math.isfinite(loss.item()):
        raise FloatingPointError(f"loss is {loss.item()} at step {step}")
    return loss.item()


def main() -> None:
    quiet_torch()
    for step in range(4):
        train_step(step, torch.full((4,), 1.5))
