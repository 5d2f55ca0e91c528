"""The training loops: a plain one over a compiled model, one over variable-length sequences, and a compiled
step that does forward, loss and backward in one graph."""

import torch
import torch.nn.functional as F


def batches(n: int, d: int = 16, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    for _ in range(n):
        yield torch.randn(8, d, generator=g), torch.randint(0, 4, (8,), generator=g)


def seq_batches(n: int, seed: int = 0):
    """Batches of sequences padded to the longest in the batch: a new length nearly every step."""
    g = torch.Generator().manual_seed(seed)
    for i in range(n):
        t = 5 + 3 * i
        yield torch.randn(8, t, 16, generator=g), torch.randint(0, 4, (8,), generator=g)


def fit(model: torch.nn.Module, compiled, steps: int = 4) -> None:
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i, (x, y) in enumerate(batches(steps)):
        loss = F.cross_entropy(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {i} loss {loss.item():.4f}", flush=True)


def fit_sequences(model: torch.nn.Module, compiled, steps: int = 12) -> None:
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i, (x, y) in enumerate(seq_batches(steps)):
        loss = F.cross_entropy(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {i} len {x.shape[1]} loss {loss.item():.4f}", flush=True)


def make_train_step(model: torch.nn.Module):
    def train_step(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        return loss

    return train_step


def fit_compiled_step(model: torch.nn.Module, step_fn, steps: int = 4) -> None:
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i, (x, y) in enumerate(batches(steps)):
        opt.zero_grad()
        loss = step_fn(x, y)
        opt.step()
        print(f"step {i} loss {loss.item():.4f}", flush=True)
