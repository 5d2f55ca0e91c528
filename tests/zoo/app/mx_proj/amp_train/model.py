"""A small classifier with a hand-written activation and a masked attention pooling."""

import torch
from torch import nn


class FusedSiLU(torch.autograd.Function):
    """x * sigmoid(x) with a hand-written backward (the program's own kernel)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * torch.sigmoid(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return grad * (s + x * s * (1 - s))


class Net(nn.Module):
    def __init__(self, dim: int = 16, classes: int = 4) -> None:
        super().__init__()
        self.inp = nn.Linear(dim, 32)
        self.score = nn.Linear(32, 1)
        self.out = nn.Linear(32, classes)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        h = FusedSiLU.apply(self.inp(x))
        scores = self.score(h).squeeze(-1).masked_fill(~mask, float("-inf"))
        attn = torch.softmax(scores, dim=-1)
        pooled = (attn.unsqueeze(-1) * h).sum(1)
        return self.out(pooled), attn, pooled
