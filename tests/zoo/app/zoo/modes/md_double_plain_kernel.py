"""A smoothing layer moved to float64 with `model.double()` for a precision check; its fixed smoothing kernel is a
plain tensor attribute (not a registered buffer), so `.double()` leaves it float32 and the conv refuses it."""

import torch
import torch.nn.functional as F
from torch import nn


class Smoother(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.fc = nn.Linear(16, 16)
        self.kernel = torch.ones(channels, 1, 3) / 3
        self.channels = channels

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.fc(x)
        return F.conv1d(h, self.kernel, padding=1, groups=self.channels)


def main() -> None:
    model = Smoother(channels=4)
    x = torch.randn(2, 4, 16)
    print("float32 output", model(x).shape)
    model = model.double()
    print("checking the output in float64")
    ref = model(x.double())
    print(ref.dtype)
