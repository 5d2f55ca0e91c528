"""wandb offline (WANDB_MODE=offline, WANDB_SILENT unset) around a resume from a checkpoint cut short.

The run logs three steps to wandb, then "resumes" from last.pt, which the previous job's save left half-written
(killed mid-save): torch.load's zip reader finds no central directory. wandb prints its own console lines around
the traceback (its run header before, its `View run` / `Find logs at` footer after).
"""

import os
import tempfile

import torch
import wandb


def train(model, run, steps: int) -> None:
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(32, 8), torch.randn(32, 1)
    for step in range(steps):
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        run.log({"loss": loss.item()}, step=step)
        print(f"step {step} loss {loss.item():.4f}", flush=True)


def resume(model, path: str) -> None:
    state = torch.load(path, map_location="cpu")
    model.load_state_dict(state["model"])


def main() -> None:
    os.environ.setdefault("WANDB_MODE", "offline")
    ckdir = tempfile.mkdtemp(prefix="vq-ckpt-")
    path = os.path.join(ckdir, "last.pt")
    model = torch.nn.Linear(8, 1)
    torch.save({"model": model.state_dict(), "step": 3}, path)
    with open(path, "rb") as f:
        blob = f.read()
    with open(path, "wb") as f:
        f.write(blob[: len(blob) // 2])  # the previous job killed mid-save
    run = wandb.init(project="vq-resume", config={"lr": 0.1, "resume_from": path})
    train(model, run, 3)
    resume(model, path)
    train(model, run, 3)
    run.finish()
