"""An EMA copy of the model built under `torch.device("meta")` to skip its random init, then filled with
`load_state_dict` (no `assign=True`, so it stays on meta); a logging thread reports the EMA's weight norm with
numpy every few steps."""

import threading
import time

import numpy as np
import torch
from torch import nn

LAST = {}


def build() -> nn.Module:
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))


def log_ema(ema: nn.Module, stop: threading.Event) -> None:
    while not stop.is_set():
        norm = float(np.linalg.norm(ema[0].weight.detach().numpy()))
        LAST["norm"] = norm
        time.sleep(0.2)


def main() -> None:
    model = build()
    with torch.device("meta"):
        ema = build()
    ema.load_state_dict(model.state_dict())
    stop = threading.Event()
    logger = threading.Thread(target=log_ema, args=(ema, stop), name="ema-logger")
    logger.start()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.3f}", flush=True)
        time.sleep(0.1)
    stop.set()
    logger.join()
    print(f"final ema weight norm {LAST['norm']:.3f}", flush=True)
