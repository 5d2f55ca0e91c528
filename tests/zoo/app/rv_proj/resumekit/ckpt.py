"""Checkpoints: save the run's state, find the latest one, load it back."""

import os

import torch


def save(path: str, model, opt, sched, epoch) -> None:
    torch.save(
        {"model": model.state_dict(), "optimizer": opt.state_dict(), "scheduler": sched.state_dict(), "epoch": epoch},
        path,
    )
    with open(os.path.join(os.path.dirname(path), "latest"), "w") as f:
        f.write(os.path.basename(path))


def find_resume(run_dir: str) -> str | None:
    """The checkpoint named by run_dir/latest, or None for a fresh start."""
    latest = os.path.join(run_dir, "latest")
    if not os.path.exists(latest):
        return None
    with open(latest) as f:
        return os.path.join(run_dir, f.read().strip())


def restore(path: str, model, opt, sched) -> int:
    state = torch.load(path, weights_only=False)
    model.load_state_dict(state["model"])
    opt.load_state_dict(state["optimizer"])
    sched.load_state_dict(state["scheduler"])
    return state["epoch"]
