"""The loop: a linear model on random data, its learning rate decayed each epoch."""

import torch
from torch import nn

from confkit2.fields import Optim, TrainConfig


def build_optimizer(model: nn.Module, kind: Optim, lr: float) -> torch.optim.Optimizer:
    if kind is Optim.ADAM:
        return torch.optim.Adam(model.parameters(), lr=lr)
    return torch.optim.SGD(model.parameters(), lr=lr)


def fit(cfg: TrainConfig, kind: Optim = Optim.SGD) -> nn.Module:
    torch.manual_seed(0)
    model = nn.Linear(8, 1)
    opt = build_optimizer(model, kind, cfg.lr)
    for epoch in range(cfg.epochs):
        for _ in range(4):
            x = torch.randn(cfg.batch_size, 8)
            loss = model(x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f} lr {cfg.lr}", flush=True)
        cfg.lr = cfg.lr * cfg.decay
        for group in opt.param_groups:
            group["lr"] = cfg.lr
    return model
