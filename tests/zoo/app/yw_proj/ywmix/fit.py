"""The training loops the cases run."""

import torch
from torch.utils.data import DataLoader

from ywmix.data import Readings
from ywmix.model import Regressor


def fit_fp16(steps: int = 6) -> None:
    """Half the memory: the model in float16, a GradScaler as the AMP docs show, clipping after unscale_."""
    model = Regressor().half()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    scaler = torch.amp.GradScaler("cpu")
    loader = DataLoader(Readings(dead_row=None), batch_size=16, shuffle=False)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.mse_loss(model(x.half()).float(), y)
        opt.zero_grad()
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt)
        scaler.update()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
        if step + 1 == steps:
            break


def fit_compiled() -> None:
    """torch.compile with fullgraph=True (the eager backend: no C++ toolchain needed for the check)."""
    model = Regressor()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    compiled = torch.compile(model, backend="eager", fullgraph=True)
    for step, (x, y) in enumerate(DataLoader(Readings(dead_row=None), batch_size=16)):
        loss = torch.nn.functional.mse_loss(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)


def fit_clipped(epochs: int = 2) -> None:
    """Two fork workers; clipping that refuses a non-finite norm instead of stepping with it."""
    model = Regressor()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(Readings(), batch_size=8, num_workers=2, multiprocessing_context="fork")
    for epoch in range(epochs):
        for step, (x, y) in enumerate(loader):
            loss = torch.nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0, error_if_nonfinite=True)
            opt.step()
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
