"""A linear probe on the first block's features: its forward hook returns the pooled features
(`output.mean(dim=(2, 3))`) for the probe, and a forward hook's return replaces the block's output, so the
second convolution gets a [N, C] tensor."""

import torch
from torch import nn

PROBE_FEATS: list[torch.Tensor] = []


def pooled(module: nn.Module, inputs: tuple, output: torch.Tensor) -> torch.Tensor:
    feats = output.mean(dim=(2, 3))
    PROBE_FEATS.append(feats.detach())
    return feats


def main() -> None:
    torch.manual_seed(0)
    net = nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.AdaptiveAvgPool2d(1)
    )
    net[1].register_forward_hook(pooled)
    x = torch.randn(8, 3, 32, 32)
    out = net(x)
    print(f"features {tuple(out.shape)}")
