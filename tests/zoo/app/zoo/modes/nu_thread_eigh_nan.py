"""A regression whose table has one missing value (NaN); after the first step every weight is NaN. A monitor in a
ThreadPoolExecutor thread takes the spectrum of W^T W each step with torch.linalg.eigvalsh; the main reads the
results at the end of the epoch."""

from concurrent.futures import ThreadPoolExecutor

import torch
from torch import nn


def spectrum(weight: torch.Tensor) -> torch.Tensor:
    return torch.linalg.eigvalsh(weight.T @ weight)


def main() -> None:
    torch.manual_seed(0)
    x = torch.randn(64, 6)
    x[37, 2] = float("nan")
    y = x.nan_to_num().sum(1, keepdim=True)
    model = nn.Linear(6, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    pending = []
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="monitor") as pool:
        for step in range(4):
            xb, yb = x[16 * step : 16 * step + 16], y[16 * step : 16 * step + 16]
            loss = nn.functional.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(f"step {step} loss {loss.item():.4f}", flush=True)
            pending.append(pool.submit(spectrum, model.weight.detach().clone()))
    for step, future in enumerate(pending):
        print(f"step {step} top eigenvalue {future.result()[-1]:.4f}", flush=True)
