"""A `StepTimer` context manager's `__exit__` returns the elapsed seconds so callers can use them; a non-zero float
is true, so every exception inside the block is suppressed. Resuming from a checkpoint that does not exist raises
FileNotFoundError inside the timer, silently; the next line uses the state the block never assigned:
`UnboundLocalError: cannot access local variable 'state' where it is not associated with a value`."""

import os
import tempfile
import time

import torch


class StepTimer:
    def __init__(self, name: str):
        self.name = name

    def __enter__(self) -> "StepTimer":
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc) -> float:
        self.elapsed = time.perf_counter() - self.t0
        return self.elapsed


def resume(model: torch.nn.Module, ckpt: str) -> None:
    with StepTimer("load"):
        state = torch.load(ckpt, map_location="cpu")
    model.load_state_dict(state)
    print("resumed", flush=True)


def main() -> None:
    model = torch.nn.Linear(4, 2)
    print("resuming from the last checkpoint", flush=True)
    resume(model, os.path.join(tempfile.mkdtemp(), "last.pt"))
