"""A statistics probe shared by a background evaluation thread: the program holds the probe's (non-reentrant)
lock around its whole forward to read a consistent snapshot, and the probe's forward hook takes the same lock to
record; the thread waits on itself for ever, the main in `join()`."""

import threading

import torch
from torch import nn


class StatsProbe:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.means: list[float] = []

    def __call__(self, module: nn.Module, inputs: tuple, output: torch.Tensor) -> None:
        with self.lock:
            self.means.append(output.mean().item())


def evaluate(model: nn.Module, probe: StatsProbe) -> None:
    for i in range(3):
        with probe.lock:
            with torch.no_grad():
                model(torch.randn(16, 8))
            print(f"eval {i}: {len(probe.means)} means", flush=True)


def main() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1))
    probe = StatsProbe()
    model[0].register_forward_hook(probe)
    t = threading.Thread(target=evaluate, args=(model, probe), name="evaluator")
    print("evaluating in a thread", flush=True)
    t.start()
    t.join()
    print("done")
