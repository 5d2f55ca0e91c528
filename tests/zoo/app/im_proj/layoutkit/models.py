"""The MLP models; importing this module registers them."""

import torch.nn as nn

from layoutkit.registry import register


@register("mlp")
class TinyMLP(nn.Module):  # was TinyNet until the convolutional models came
    def __init__(self, d_in: int = 16, n_classes: int = 4) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.net(x)


@register("mlp_wide")
class WideMLP(TinyMLP):
    def __init__(self, d_in: int = 16, n_classes: int = 4) -> None:
        super().__init__(d_in, n_classes)
        self.net = nn.Sequential(nn.Linear(d_in, 128), nn.ReLU(), nn.Linear(128, n_classes))
