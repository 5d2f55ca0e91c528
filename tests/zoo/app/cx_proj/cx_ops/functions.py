"""Custom autograd Functions over the project's C++ ops."""

import torch

from cx_ops.build import ops


class FusedScale(torch.autograd.Function):
    """y = x * s through the C++ op; the gradient is grad * s."""

    @staticmethod
    def forward(ctx, x: torch.Tensor, s: float) -> torch.Tensor:
        ctx.s = s
        return ops().fused_scale(x, s)

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        return ops().fused_scale(grad.contiguous(), ctx.s), None


class RowScale(torch.autograd.Function):
    """y = x * w[None, :] with a per-feature weight; the weight's gradient reduced over the batch."""

    @staticmethod
    def forward(ctx, x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
        ctx.save_for_backward(x, w)
        return x * w

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        x, w = ctx.saved_tensors
        # the weight's gradient summed over the batch, the input's over the features (the slip)
        return (grad * w).sum(1), (grad * x).sum(0)


class Temper(torch.autograd.Function):
    """softmax(x / t) with the temperature kept for backward."""

    @staticmethod
    def forward(ctx, x: torch.Tensor, t: float) -> torch.Tensor:
        y = torch.softmax(x / t, dim=-1)
        ctx.save_for_backward(y, t)
        return y

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        y, t = ctx.saved_tensors
        dx = y * (grad - (grad * y).sum(-1, keepdim=True))
        return dx / t, None
