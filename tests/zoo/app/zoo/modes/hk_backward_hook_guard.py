"""A gradient guard: a full backward hook on every Linear raises the program's own error when a gradient is too
large; targets left in centimetres (x10) and a summed loss send the first backward past it, in `loss.backward()`."""

import torch
from torch import nn


class GradientExplosion(RuntimeError):
    pass


def guard(name: str, limit: float = 100.0):
    def hook(module: nn.Module, grad_input: tuple, grad_output: tuple) -> None:
        norm = grad_output[0].norm().item()
        if norm > limit:
            raise GradientExplosion(f"{name}: grad_output norm {norm:.1f} > {limit}")

    return hook


def main() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))
    for name, m in model.named_modules():
        if isinstance(m, nn.Linear):
            m.register_full_backward_hook(guard(name))
    opt = torch.optim.SGD(model.parameters(), lr=50.0)
    x, y = torch.randn(64, 8), torch.randn(64, 1) * 10
    for step in range(5):
        loss = (model(x) - y).pow(2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.2f}", flush=True)
