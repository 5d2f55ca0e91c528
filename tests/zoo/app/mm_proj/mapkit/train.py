"""A tiny regression model, its checkpoint and its resume."""

import torch
from torch import nn

from mapkit.shards import DIM


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(DIM, 512)
        self.mid = nn.Linear(512, 512)
        self.head = nn.Linear(512, 1)

    def forward(self, x):
        return self.head(torch.relu(self.mid(torch.relu(self.body(x)))))


def fit(model: nn.Module, batches) -> float:
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loss = torch.tensor(0.0)
    for x in batches:
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return float(loss.detach())


def save_checkpoint(model: nn.Module, path: str) -> None:
    torch.save(model.state_dict(), path)


def open_checkpoint(path: str) -> dict:
    """Mapped, not read: the weights are paged in when the state dict is copied into a model."""
    return torch.load(path, mmap=True, weights_only=True)


def export_head(model: nn.Module, path: str) -> None:
    torch.save({"head": model.head.state_dict()}, path)


def resume(model: nn.Module, state: dict) -> nn.Module:
    model.load_state_dict(state)
    return model
