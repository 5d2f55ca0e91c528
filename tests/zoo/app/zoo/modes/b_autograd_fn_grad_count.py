"""A straight-through quantiser written as a custom autograd.Function: forward takes the input and the number of
levels, backward returns the input's gradient alone, not a None for `levels`."""

import torch


class Quantize(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor, levels: torch.Tensor) -> torch.Tensor:
        return torch.round(x * levels) / levels

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        return grad


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 4)
    levels = torch.tensor(16.0, requires_grad=True)
    x, y = torch.randn(32, 8), torch.randn(32, 4)
    out = Quantize.apply(model(x), levels)
    loss = torch.nn.functional.mse_loss(out, y)
    loss.backward()
    print(f"loss {loss.item():.4f}")
