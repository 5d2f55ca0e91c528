"""An evaluation thread reads the shared settings each step (`step % cfg.eval_every`); the main, after the
warm-up, switches evaluation off by setting cfg.eval_every = None on the same object."""

import threading
import time
from dataclasses import dataclass

import torch


@dataclass
class RunSettings:
    steps: int = 40
    eval_every: int | None = 5


def evaluator(cfg: RunSettings, progress: list) -> None:
    for step in range(cfg.steps):
        if step % cfg.eval_every == 0:
            progress.append(step)
        time.sleep(0.02)


def main() -> None:
    cfg = RunSettings()
    progress: list = []
    t = threading.Thread(target=evaluator, args=(cfg, progress), name="evaluator")
    t.start()
    model = torch.nn.Linear(8, 1)
    time.sleep(0.2)
    print(f"warm-up done, evaluated at {progress}", flush=True)
    cfg.eval_every = None
    for _ in range(5):
        model(torch.randn(4, 8)).sum().backward()
    t.join()
    if not progress or progress[-1] < 20:
        raise RuntimeError(f"evaluator stopped early: last evaluation at step {progress[-1]}")
