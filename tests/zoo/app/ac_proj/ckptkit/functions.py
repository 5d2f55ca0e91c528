"""The project's own autograd functions."""

import torch


class GradScale(torch.autograd.Function):
    """Identity forward, gradient scaled by `scale` in backward (a gradient-reversal style layer).

    Written after an old recipe: forward and backward as instance methods, the scale kept on self.
    """

    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return x.view_as(x)

    def backward(self, grad):
        return grad * self.scale
