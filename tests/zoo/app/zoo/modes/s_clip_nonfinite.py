"""A regression with an exponential loss on unscaled targets (values near 1000): the loss overflows to inf, and
clip_grad_norm_(..., error_if_nonfinite=True) refuses the non-finite gradient norm."""

import torch


def train(model: torch.nn.Module, x: torch.Tensor, y: torch.Tensor) -> None:
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    for step in range(3):
        opt.zero_grad()
        loss = torch.exp((model(x) - y).abs()).mean()  # exp of errors near 1000: inf in float32
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0, error_if_nonfinite=True)
        opt.step()
        print(step, loss.item())


def main() -> None:
    torch.manual_seed(0)
    x = torch.randn(32, 4)
    y = 1000.0 + 50.0 * torch.randn(32, 1)  # prices, never normalised
    train(torch.nn.Linear(4, 1), x, y)
