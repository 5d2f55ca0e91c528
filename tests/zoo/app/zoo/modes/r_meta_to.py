"""A model built on the meta device (to save memory) moved with .to() instead of to_empty(): no data to copy."""

import torch


def build() -> torch.nn.Module:
    with torch.device("meta"):
        return torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2))


def main() -> None:
    model = build().to("cpu")
    print(model(torch.randn(1, 16)))
