"""A model wrapper that forwards unknown attributes to the wrapped model; copy.deepcopy (to make an EMA copy)
builds the copy without __init__, so `self.inner` is itself unknown: __getattr__ recurses until RecursionError."""

import copy

import torch


class Wrapped:
    def __init__(self, inner: torch.nn.Module):
        self.inner = inner

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


def main() -> None:
    model = Wrapped(torch.nn.Linear(4, 4))
    ema = copy.deepcopy(model)
    print(ema.weight.shape)
