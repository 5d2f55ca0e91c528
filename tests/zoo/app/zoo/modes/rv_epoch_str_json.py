"""The run's progress is kept in a meta.json beside the checkpoint, written with the epoch formatted as text (to
keep it readable); the requeued run reads it back and compares the epoch with the number of epochs."""

import json
import os
import tempfile

import torch
from torch import nn


def save_meta(run_dir: str, epoch: int, best: float) -> None:
    with open(os.path.join(run_dir, "meta.json"), "w") as f:
        json.dump({"epoch": f"{epoch:03d}", "best": best}, f)


def load_meta(run_dir: str) -> dict:
    with open(os.path.join(run_dir, "meta.json")) as f:
        return json.load(f)


def main() -> None:
    run_dir = tempfile.mkdtemp(prefix="rv-")
    model = nn.Linear(4, 1)
    torch.save(model.state_dict(), os.path.join(run_dir, "model.pt"))
    save_meta(run_dir, 2, 0.31)
    print("saved epoch 2", flush=True)
    meta = load_meta(run_dir)
    model.load_state_dict(torch.load(os.path.join(run_dir, "model.pt")))
    epoch, max_epochs = meta["epoch"], 5
    while epoch < max_epochs:
        print(f"epoch {epoch}", flush=True)
        epoch += 1
