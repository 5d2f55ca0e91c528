"""torch.utils.benchmark.Timer for the forward pass, given the model in its globals but not the batch."""

import torch
from torch.utils import benchmark


def main() -> None:
    model = torch.nn.Sequential(torch.nn.Linear(128, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10))
    x = torch.randn(64, 128)
    print("eager output", tuple(model(x).shape), flush=True)
    timer = benchmark.Timer(stmt="model(x)", globals={"model": model}, label="forward", num_threads=1)
    print(timer.timeit(20), flush=True)
