"""One trial: train a small MLP on a synthetic regression set with a config, return its last loss."""

from __future__ import annotations

import json
import os
import sqlite3
import time

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class TrialPruned(Exception):
    """Raised by the pruning callback to stop a trial that does worse than the median."""


def dataset(n: int = 256) -> TensorDataset:
    g = torch.Generator().manual_seed(1)
    x = torch.randn(n, 8, generator=g)
    return TensorDataset(x, x.sum(1, keepdim=True))


def build(config: dict) -> nn.Module:
    return nn.Sequential(nn.Linear(8, config["hidden"]), nn.ReLU(), nn.Linear(config["hidden"], 1))


class MedianPruner:
    def __init__(self, after: int) -> None:
        self.after = after

    def report(self, number: int, step: int, loss: float) -> None:
        if step >= self.after and number % 2 == 1:
            raise TrialPruned(f"trial {number} pruned at step {step} (loss {loss:.3f})")


def train(config: dict, on_step=None) -> float:
    torch.manual_seed(config["number"])
    model = build(config)
    opt = torch.optim.SGD(model.parameters(), lr=config["lr"], weight_decay=config.get("weight_decay", 0.0))
    loader = DataLoader(dataset(), batch_size=config["batch_size"], shuffle=True)
    step, loss = 0, torch.tensor(0.0)
    while step < config["steps"]:
        for x, y in loader:
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if on_step is not None:
                on_step(config["number"], step, loss.item())
            step += 1
            if step >= config["steps"]:
                break
    return loss.item()


def run_trial(config: dict) -> dict:
    return {"number": config["number"], "loss": train(config), "config": config}


def run_pruned_trial(config: dict) -> dict:
    pruner = MedianPruner(config["prune_after"])
    return {"number": config["number"], "loss": train(config, pruner.report), "config": config}


def run_and_append(config: dict, path: str) -> int:
    """Each trial adds its record to the study's results file (the report reads it back)."""
    record = run_trial(config)
    with open(path, "a") as f:
        json.dump(record, f)
    return record["number"]


def run_and_store(config: dict, db: str) -> int:
    """Each trial marks itself running in the study's SQLite database, trains, then stores its loss."""
    con = sqlite3.connect(db, timeout=0.2)
    if config["number"] % 2 == 1:
        time.sleep(0.5)  # the second worker starts a little later
    con.execute("BEGIN IMMEDIATE")
    con.execute("INSERT INTO trials (number, state) VALUES (?, 'RUNNING')", (config["number"],))
    if config["number"] % 2 == 0:
        time.sleep(2.0)  # the first trial validates slowly, its transaction still open
    loss = train(config)
    con.execute("UPDATE trials SET state = 'COMPLETE', loss = ? WHERE number = ?", (loss, config["number"]))
    con.commit()
    con.close()
    return config["number"]


def run_with_time_limit(config: dict, seconds: int = 2) -> dict:
    """The harness's per-trial time limit: an alarm the main's SIGALRM handler turns into a failed trial."""
    os.environ["TUNEKIT_TRIAL"] = str(config["number"])
    import signal

    signal.alarm(seconds)
    try:
        return run_trial(config)
    finally:
        signal.alarm(0)
