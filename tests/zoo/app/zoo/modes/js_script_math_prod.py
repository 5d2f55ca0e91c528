"""torch.jit.script of a head whose forward flattens with `math.prod`, a Python builtin TorchScript refuses."""

import math

import torch
from torch import nn


class FlattenHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3 * 4 * 4, 5)

    def forward(self, x):
        return self.fc(x.reshape(x.shape[0], math.prod(x.shape[1:])))


def main() -> None:
    torch.set_num_threads(1)
    head = FlattenHead()
    print(f"eager output {tuple(head(torch.randn(2, 3, 4, 4)).shape)}; scripting for the speed-up", flush=True)
    fast = torch.jit.script(head)
    print(fast(torch.randn(2, 3, 4, 4)).shape)
