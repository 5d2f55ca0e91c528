"""A training script written on a GPU machine, run on a CPU-only torch build: its device is hard-coded as
"cuda" (no torch.cuda.is_available() check), and the first .to(device) fails."""

import torch
from torch import nn

DEVICE = "cuda"


def main() -> None:
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2)).to(DEVICE)
    x = torch.randn(4, 8, device=DEVICE)
    print(model(x).shape)
