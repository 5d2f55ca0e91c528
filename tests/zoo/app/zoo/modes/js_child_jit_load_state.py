"""The trainer saves its model with torch.save; a spawned evaluation child opens it with torch.jit.load."""

import multiprocessing as mp
import os
import tempfile

import torch
from torch import nn


def evaluate(path: str) -> None:
    model = torch.jit.load(path)
    print(f"evaluator: {model(torch.randn(4, 8)).shape}", flush=True)


def main() -> None:
    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as out:
        path = os.path.join(out, "model.pt")
        torch.save(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3)), path)
        print(f"saved {path}; starting the evaluator", flush=True)
        child = mp.get_context("spawn").Process(target=evaluate, args=(path,), name="evaluator")
        child.start()
        child.join()
        if child.exitcode != 0:
            raise RuntimeError(f"evaluator exited with code {child.exitcode}")
