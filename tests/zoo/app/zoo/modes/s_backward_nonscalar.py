"""A per-sample loss (`reduction="none"`, kept to weight hard samples later) passed to backward() without
reducing it: autograd cannot make the implicit gradient of a non-scalar."""

import torch
from torch.nn import functional as F


def train_step(model: torch.nn.Module, opt: torch.optim.Optimizer, x: torch.Tensor, y: torch.Tensor) -> None:
    opt.zero_grad()
    per_sample = F.mse_loss(model(x), y, reduction="none")
    per_sample.backward()
    opt.step()


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(16, 4), torch.randn(16, 1)
    for _ in range(3):
        train_step(model, opt, x, y)
