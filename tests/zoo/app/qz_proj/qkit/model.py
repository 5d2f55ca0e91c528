"""The float model and its export head."""

import torch
import torch.ao.quantization as tq
from torch import nn


class Net(nn.Module):
    """A small MLP classifier with QuantStub/DeQuantStub for eager-mode static quantization."""

    def __init__(self, n_in: int = 16, n_hidden: int = 32, n_out: int = 4) -> None:
        super().__init__()
        self.quant = tq.QuantStub()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(n_hidden, n_out)
        self.dequant = tq.DeQuantStub()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.quant(x)
        x = self.relu(self.fc1(x))
        return self.dequant(self.fc2(x))


class WithPrior(nn.Module):
    """Adds a learned class prior to the logits, one row per example (the serving wrapper)."""

    def __init__(self, net: nn.Module, n_out: int = 4) -> None:
        super().__init__()
        self.net = net
        self.prior = nn.Parameter(torch.zeros(n_out))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        bias = torch.zeros(len(x), self.prior.numel()) + self.prior
        return self.net(x) + bias


class SafeHead(nn.Module):
    """The export head: a softmax that falls back to the raw logits on a bad input."""

    def __init__(self, net: nn.Module) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits = self.net(x)
        try:
            return torch.softmax(logits, dim=-1)
        except RuntimeError:
            return logits


def make_data(n: int = 37, n_in: int = 16, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, n_in, generator=g)
    y = (x[:, :4].argmax(dim=1)).long()
    return x, y


class NetBN(Net):
    """Net with a BatchNorm1d after the hidden layer, fused into it before quantization."""

    def __init__(self, n_in: int = 16, n_hidden: int = 32, n_out: int = 4) -> None:
        super().__init__(n_in, n_hidden, n_out)
        self.bn1 = nn.BatchNorm1d(n_hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.quant(x)
        x = self.relu(self.bn1(self.fc1(x)))
        return self.dequant(self.fc2(x))
