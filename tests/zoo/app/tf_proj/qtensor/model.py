"""The model: a small MLP whose first layer holds int8 weights."""

import torch
from torch import nn

from qtensor.tensors import Int8Weight


class QuantMLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        q = torch.randint(-127, 128, (16, 8), dtype=torch.int8, generator=torch.Generator().manual_seed(0))
        self.w1 = Int8Weight(q, 0.01)
        self.fc2 = nn.Linear(16, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(x @ self.w1.t())
        return self.fc2(h)


class QuantLinear(nn.Module):
    """A frozen int8 layer: its weight a Parameter (so .to(), state_dict() and DDP see it) over Int8Weight."""

    def __init__(self, n_in: int, n_out: int) -> None:
        super().__init__()
        q = torch.randint(-127, 128, (n_out, n_in), dtype=torch.int8, generator=torch.Generator().manual_seed(1))
        self.weight = nn.Parameter(Int8Weight(q, 0.01), requires_grad=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.weight.t()
