"""Gradient clipping calls scaler.unscale_ in the loop and again in a helper: the second call is refused."""

import torch


def clip(scaler: torch.amp.GradScaler, opt: torch.optim.Optimizer, model: torch.nn.Module) -> None:
    scaler.unscale_(opt)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)


def main() -> None:
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu")
    loss = model(torch.randn(8, 4)).pow(2).mean()
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    clip(scaler, opt, model)
    scaler.step(opt)
    scaler.update()
