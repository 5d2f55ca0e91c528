"""The training loop, with gradient accumulation and the loop's own sanity checks."""

import torch
from torch import nn


def data(n: int = 64, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    y = x @ torch.linspace(-1, 1, 8).unsqueeze(1) + 0.1
    return x, y


def check_falls(first: float, last: float) -> None:
    if not last < 0.9 * first:
        raise RuntimeError(f"loss did not fall: {first:.4f} -> {last:.4f}; is the optimizer stepping the model?")


def check_accum_scale(model: nn.Module, full_norm: float, tol: float = 0.05) -> None:
    norm = torch.cat([p.grad.flatten() for p in model.parameters()]).norm().item()
    if abs(norm - full_norm) > tol * full_norm:
        raise AssertionError(f"accumulated gradient norm {norm:.4f} != full-batch norm {full_norm:.4f}")


def fit(model: nn.Module, opt: torch.optim.Optimizer, epochs: int, accum: int = 1, sched=None) -> float:
    x, y = data()
    first = None
    for epoch in range(epochs):
        opt.zero_grad()
        for chunk_x, chunk_y in zip(x.chunk(accum), y.chunk(accum)):
            loss = nn.functional.mse_loss(model(chunk_x), chunk_y)
            loss.backward()
        first = loss.item() if first is None else first
        opt.step()
        if sched is not None:
            sched.step()
        print(f"epoch {epoch} loss {loss.item():.4f}", flush=True)
    check_falls(first, loss.item())
    return loss.item()


def full_batch_norm(model: nn.Module) -> float:
    x, y = data()
    model.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    norm = torch.cat([p.grad.flatten() for p in model.parameters()]).norm().item()
    model.zero_grad()
    return norm


def accumulate(model: nn.Module, accum: int) -> None:
    """One accumulated step's gradients, checked against the full batch's before stepping."""
    full = full_batch_norm(model)
    x, y = data()
    for chunk_x, chunk_y in zip(x.chunk(accum), y.chunk(accum)):
        nn.functional.mse_loss(model(chunk_x), chunk_y).backward()  # summed over chunks, not averaged
    check_accum_scale(model, full)
