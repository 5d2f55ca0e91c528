"""An activation modified in place after autograd saved it: backward finds the version changed."""

import torch

from zoo.data import quiet_torch


def forward(w):
    h = torch.sigmoid(w)
    h += 1  # in place: sigmoid's backward needs its output unchanged
    return h.sum()


def main() -> None:
    quiet_torch()
    forward(torch.zeros(4, 2, requires_grad=True)).backward()
