"""A small classifier, its training loop, a statsd-style metrics client and an EMA of the weights."""

import copy
import socket

import torch
from torch import nn


class StatsClient:
    """Sends gauges over UDP, as a statsd client does."""

    def __init__(self, host: str = "127.0.0.1", port: int = 8125) -> None:
        self.addr = (host, port)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)

    def gauge(self, name: str, value: float) -> None:
        self.sock.sendto(f"{name}:{value}|g".encode(), self.addr)


class Classifier(nn.Module):
    def __init__(self, dim: int, stats: StatsClient | None = None) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 16), nn.ReLU(), nn.Linear(16, 2))
        self.stats = stats

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.net(x)
        if self.stats is not None:
            self.stats.gauge("logit_mean", out.mean().item())
        return out


class EMA:
    def __init__(self, model: nn.Module, decay: float = 0.99) -> None:
        self.decay = decay
        self.shadow = copy.deepcopy(model).eval()

    @torch.no_grad()
    def update(self, model: nn.Module) -> None:
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.mul_(self.decay).add_(p, alpha=1 - self.decay)


def fit(model: nn.Module, loader, epochs: int = 1, ema: bool = False) -> None:
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    shadow = EMA(model) if ema else None
    for epoch in range(epochs):
        for _step, (x, y) in enumerate(loader):
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if shadow is not None:
                shadow.update(model)
        print(f"epoch {epoch} loss {loss.item():.4f}", flush=True)
