"""An evaluator started as a spawned child process; it reads its interval from EN_EVAL_EVERY, which the launcher
set to "10k". The child fails; the main notices the exit code when it joins it and raises."""

import os

import torch
import torch.multiprocessing as mp


def evaluate(weights: torch.Tensor) -> None:
    every = int(os.environ.get("EN_EVAL_EVERY", "100"))
    for step in range(0, 300, every):
        print(f"eval at {step}: {weights.sum().item():.3f}", flush=True)


def main() -> None:
    model = torch.nn.Linear(4, 2)
    ctx = mp.get_context("spawn")
    child = ctx.Process(target=evaluate, args=(model.weight.detach().clone(),))
    child.start()
    child.join()
    if child.exitcode != 0:
        raise RuntimeError(f"evaluator exited with code {child.exitcode}")
