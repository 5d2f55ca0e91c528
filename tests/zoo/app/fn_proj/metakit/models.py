"""The regressors: a plain MLP, one with BatchNorm, one with an unused auxiliary head."""

import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self, hidden: int = 32, norm: bool = False) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(1, hidden), nn.BatchNorm1d(hidden) if norm else nn.Identity(), nn.ReLU(), nn.Linear(hidden, 1)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


class Flatten(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.view(x.size(0), -1)


class ProbedMLP(nn.Module):
    """An MLP whose flattening step is probed with a full backward hook (gradient statistics)."""

    def __init__(self, hidden: int = 32) -> None:
        super().__init__()
        self.inp = nn.Linear(1, hidden)
        self.flat = Flatten()
        self.act = nn.ReLU(inplace=True)
        self.out = nn.Linear(hidden, 1)
        self.grad_norms: list[float] = []
        self.flat.register_full_backward_hook(self._probe)

    def _probe(self, module, grad_input, grad_output):
        self.grad_norms.append(float(grad_output[0].norm()))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(self.act(self.flat(self.inp(x))))


class TwoHead(nn.Module):
    """A regressor with an auxiliary uncertainty head (used only when the loss asks for it)."""

    def __init__(self, hidden: int = 32) -> None:
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(1, hidden), nn.ReLU())
        self.mean = nn.Linear(hidden, 1)
        self.logvar = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.mean(self.trunk(x))
