"""The convolutional models; importing this module registers them (nothing imports it yet)."""

import torch.nn as nn

from layoutkit.registry import register


@register("conv_small")
class ConvSmall(nn.Module):
    def __init__(self, d_in: int = 16, n_classes: int = 4) -> None:
        super().__init__()
        self.conv = nn.Conv1d(1, 8, 3, padding=1)
        self.fc = nn.Linear(8 * d_in, n_classes)

    def forward(self, x):
        return self.fc(self.conv(x.unsqueeze(1)).flatten(1))
