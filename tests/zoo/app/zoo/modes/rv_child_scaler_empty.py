"""The resumed run's evaluation is done in a child process, which rebuilds the model and the GradScaler from the
checkpoint. The checkpoint was written by a run with mixed precision switched off: its scaler was a disabled
GradScaler, whose state_dict() is empty; the child's scaler is enabled."""

import multiprocessing as mp
import os
import sys
import tempfile

import torch
from torch import nn


def evaluate(path: str) -> None:
    state = torch.load(path)
    model = nn.Linear(8, 2)
    model.load_state_dict(state["model"])
    scaler = torch.amp.GradScaler("cpu", enabled=True)
    scaler.load_state_dict(state["scaler"])
    print(f"eval scale {scaler.get_scale()}", flush=True)


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="rv-"), "last.pt")
    model = nn.Linear(8, 2)
    scaler = torch.amp.GradScaler("cpu", enabled=False)
    torch.save({"model": model.state_dict(), "scaler": scaler.state_dict()}, path)
    print("saved, evaluating in a child", flush=True)
    child = mp.get_context("fork").Process(target=evaluate, args=(path,), name="evaluator")
    child.start()
    child.join()
    if child.exitcode != 0:
        sys.exit(f"evaluation child exited with {child.exitcode}")
