"""A config written on a two-GPU workstation (`gpu: 1`) run on a one-GPU machine: `cuda:1` does not exist
(wdrink/PyDeepFakeDet#1, LuyaooChen/uninformed-students-pytorch#3)."""

import torch

from zoo.data import quiet_torch

CONFIG = {"gpu": 1, "hidden": 64}  # the bug: the second GPU of the machine it was written on


def build(config):
    device = torch.device(f"cuda:{config['gpu']}")
    model = torch.nn.Sequential(torch.nn.Linear(32, config["hidden"]), torch.nn.ReLU(), torch.nn.Linear(64, 2))
    return model.to(device), device


def main() -> None:
    quiet_torch()
    model, device = build(CONFIG)
    x = torch.randn(16, 32, device=device)
    print(float(model(x).sum()))
