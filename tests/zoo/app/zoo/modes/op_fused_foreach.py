"""The optimizer's keyword arguments come from a config where both speed switches were turned on:
`AdamW(..., fused=True, foreach=True)`, which torch refuses."""

import torch
from torch import nn

CONFIG = {"lr": 1e-3, "weight_decay": 0.01, "fused": True, "foreach": True}


def build(model: nn.Module) -> torch.optim.Optimizer:
    return torch.optim.AdamW(model.parameters(), **CONFIG)


def main() -> None:
    model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = build(model)
    loss = model(torch.randn(4, 8)).pow(2).mean()
    loss.backward()
    opt.step()
    print("stepped")
