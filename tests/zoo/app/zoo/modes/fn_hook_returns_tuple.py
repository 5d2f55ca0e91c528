"""A feature-extraction forward hook meant to record the hidden activations returns (output, features): a forward
hook's return value replaces the module's output, so the next layer gets a tuple."""

import torch
from torch import nn

FEATURES: dict[str, torch.Tensor] = {}


def keep(name: str):
    def hook(module, inputs, output):
        FEATURES[name] = output.detach()
        return output, FEATURES[name]

    return hook


def main() -> None:
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    model[1].register_forward_hook(keep("hidden"))
    logits = model(torch.randn(8, 16))
    print(logits.shape, FEATURES["hidden"].shape)
