"""An activation-statistics collector guarded by a threading.Lock (a reporter thread reads it); the forward hook
takes the lock to record, and the evaluation step takes the same lock around the whole forward to get a
consistent snapshot: a plain Lock taken twice by the main thread, which waits for itself for ever."""

import threading
import time

import torch
from torch import nn


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.means: list[float] = []

    def hook(self, module, inputs, output) -> None:
        with self.lock:
            self.means.append(output.detach().mean().item())

    def report(self) -> None:
        while True:
            with self.lock:
                n = len(self.means)
            print(f"recorded {n}", flush=True)
            time.sleep(2)


def main() -> None:
    stats = Stats()
    model = nn.Sequential(nn.Linear(8, 8), nn.ReLU())
    model[1].register_forward_hook(stats.hook)
    threading.Thread(target=stats.report, daemon=True).start()
    model(torch.randn(4, 8))
    print("warm-up forward done; evaluating with a snapshot", flush=True)
    with stats.lock:
        model(torch.randn(4, 8))
        snapshot = list(stats.means)
    print(snapshot)
