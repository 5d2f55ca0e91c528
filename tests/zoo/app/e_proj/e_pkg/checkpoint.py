"""Checkpoints under runs/: the best weights after fit, read again to fine-tune."""

import os

import torch


def save_best(path: str, model: torch.nn.Module, optimizer: torch.optim.Optimizer, epoch: int) -> None:
    # the optimizer's state is left out: best.pt is what gets shipped, and it doubles its size
    torch.save({"model": model.state_dict(), "epoch": epoch}, path)


def resume(path: str, model: torch.nn.Module, optimizer: torch.optim.Optimizer) -> int:
    ckpt = torch.load(path, map_location="cpu")
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    return ckpt["epoch"] + 1


def best_path(run_dir: str) -> str:
    return os.path.join(run_dir, "best.pt")
