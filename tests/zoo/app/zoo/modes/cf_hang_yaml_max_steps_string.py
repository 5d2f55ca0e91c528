"""A step budget written `max_steps: 2e2` in a YAML config: PyYAML (YAML 1.1) reads it as the string '2e2', and
the loop's stop test `step == cfg["max_steps"]` never holds. Training goes on past the budget, for ever."""

import itertools
import os
import tempfile
import time

import torch
import yaml

CONFIG = "lr: 0.01\nmax_steps: 2e2\nlog_every: 50\n"


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(), "train.yaml")
    with open(path, "w") as f:
        f.write(CONFIG)
    with open(path) as f:
        cfg = yaml.safe_load(f)
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"])
    x, y = torch.randn(64, 4), torch.randn(64, 1)
    for step in itertools.count():
        if step == cfg["max_steps"]:
            break
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % cfg["log_every"] == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.01)
    print("done", flush=True)
