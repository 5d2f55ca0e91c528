"""An input-normalising forward pre-hook registered with `with_kwargs=True` (to see the `mask` keyword) that
returns only the new positional args, where torch wants `(args, kwargs)` or None."""

import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        out = self.fc(x)
        return out if mask is None else out * mask


def normalise_inputs(module: nn.Module, args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    return ((x - x.mean(-1, keepdim=True)) / (x.std(-1, keepdim=True) + 1e-5),)


def main() -> None:
    enc = Encoder()
    enc.register_forward_pre_hook(normalise_inputs, with_kwargs=True)
    x, mask = torch.randn(4, 8), torch.ones(4, 8)
    print("encoding a batch of", len(x))
    print(enc(x, mask=mask).shape)
