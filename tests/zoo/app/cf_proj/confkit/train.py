"""A small regression trainer driven by the schema's settings."""

import torch
from torch import nn

from confkit.load import load_yaml


def data(n: int = 64) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, 8, generator=g)
    return x, x.sum(dim=1, keepdim=True)


def fit(train, optim) -> None:
    model = nn.Sequential(nn.Linear(8, train.hidden), nn.ReLU(), nn.Linear(train.hidden, 1))
    opt = torch.optim.SGD(model.parameters(), lr=optim.lr, momentum=optim.momentum)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=train.epochs, eta_min=optim.eta_min)
    x, y = data()
    for epoch in range(train.epochs):
        for i in range(0, len(x), train.batch_size):
            loss = nn.functional.mse_loss(model(x[i : i + train.batch_size]), y[i : i + train.batch_size])
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        print(f"epoch {epoch} loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.4f}", flush=True)


def evaluate_shard(index: int, config_path: str) -> None:
    """A spawned evaluation child: it reads the configuration again, from the path it was given."""
    cfg = load_yaml(config_path)
    print(f"child {index}: batch_size {cfg['train']['batch_size']}", flush=True)
