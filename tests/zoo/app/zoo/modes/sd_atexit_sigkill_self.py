"""To skip a slow shutdown of persistent DataLoader workers, the program's atexit hook kills its own process
with SIGKILL once training is done."""

import atexit
import os
import signal

import torch
from torch.utils.data import DataLoader, TensorDataset


def fast_exit() -> None:
    print("skipping worker shutdown", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)


def main() -> None:
    atexit.register(fast_exit)
    ds = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
    loader = DataLoader(ds, batch_size=16, num_workers=2, persistent_workers=True)
    model = torch.nn.Linear(4, 1)
    for epoch in range(2):
        total = sum(torch.nn.functional.mse_loss(model(x), y).item() for x, y in loader)
        print(f"epoch {epoch}: loss {total:.4f}", flush=True)
    print("training done", flush=True)
