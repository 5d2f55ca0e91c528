"""A learning-rate sweep: each trial runs in a spawned child with dataclasses.replace(base, lr=..., step=0);
`step` is a counter the settings keep with field(init=False), which replace() refuses to set."""

import multiprocessing as mp
from dataclasses import dataclass, field, replace

import torch


@dataclass
class TrialConfig:
    lr: float = 0.1
    epochs: int = 2
    step: int = field(default=0, init=False)


def trial(base: TrialConfig, lr: float) -> None:
    cfg = replace(base, lr=lr, step=0)
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=cfg.lr)
    for _ in range(cfg.epochs):
        loss = model(torch.randn(8, 4)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"trial lr={cfg.lr} loss {loss.item():.4f}", flush=True)


def main() -> None:
    ctx = mp.get_context("spawn")
    base = TrialConfig()
    base.step = 120
    for lr in (0.1, 0.01):
        p = ctx.Process(target=trial, args=(base, lr), name=f"trial-{lr}")
        p.start()
        p.join()
        if p.exitcode != 0:
            raise RuntimeError(f"trial lr={lr} exited with {p.exitcode}")
