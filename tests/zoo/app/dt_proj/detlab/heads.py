"""A two-level backbone (strides 8 and 16), an anchor generator and a shared RetinaNet-style head."""

import math

import torch
from torch import nn


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, 32, 3, 2, 1)
        )
        self.down = nn.Conv2d(32, 32, 3, 2, 1)

    def forward(self, x: torch.Tensor) -> list[torch.Tensor]:
        p3 = torch.relu(self.stem(x))
        return [p3, torch.relu(self.down(p3))]


class AnchorGenerator:
    def __init__(self, sizes: tuple, strides: tuple):
        self.sizes, self.strides = sizes, strides

    def __call__(self, feats: list[torch.Tensor]) -> torch.Tensor:
        if len(self.sizes) != len(feats):
            raise ValueError(
                "Anchors should be Tuple[Tuple[int]] because each feature map could potentially have different"
                " sizes and aspect ratios. There needs to be a match between the number of feature maps passed"
                " and the number of sizes / aspect ratios specified."
            )
        out = []
        for (size,), stride, f in zip(self.sizes, self.strides, feats):
            h, w = f.shape[-2:]
            ys, xs = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
            cx, cy = (xs.flatten() + 0.5) * stride, (ys.flatten() + 0.5) * stride
            out.append(torch.stack([cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2], dim=1))
        return torch.cat(out)


class Head(nn.Module):
    def __init__(self, num_classes: int, prior: float = 0.01):
        super().__init__()
        self.num_classes = num_classes
        self.cls = nn.Conv2d(32, num_classes, 3, 1, 1)
        self.reg = nn.Conv2d(32, 4, 3, 1, 1)
        nn.init.constant_(self.cls.bias, -math.log((1 - prior) / prior))

    def forward(self, feats: list[torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
        b = feats[0].shape[0]
        cls = torch.cat([self.cls(f).permute(0, 2, 3, 1).reshape(b, -1, self.num_classes) for f in feats], 1)
        reg = torch.cat([self.reg(f).permute(0, 2, 3, 1).reshape(b, -1, 4) for f in feats], 1)
        return cls, reg
