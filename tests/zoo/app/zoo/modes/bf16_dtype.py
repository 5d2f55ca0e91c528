"""Mixed precision by hand: a bf16 feature batch into a float32 Linear, outside autocast."""

import torch

from zoo.data import quiet_torch


def project(layer, features):
    return layer(features)


def main() -> None:
    quiet_torch()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        features = torch.nn.Linear(4, 4)(torch.zeros(2, 4))  # bf16 under autocast
    print(project(torch.nn.Linear(4, 2), features))
