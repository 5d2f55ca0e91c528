"""The training loop: a small classifier of synthetic 8x8 images, 2 epochs of 5 steps, and what it writes about
itself (a text log, metrics, sample images). Each case is one way that writing goes wrong."""

import os
import tempfile
from pathlib import Path

import torch
from torch import nn

from tracklog.images import save_samples
from tracklog.logger import fresh_run_dir, setup_logging
from tracklog.metrics import Tracker

CASES = {
    # `--overwrite`: the run's folder is cleared of an earlier run's files before the log is opened
    "lg_log_dir_cleared": {"overwrite": True},
    # the step-stamped log format for every line, the epoch summary logged without its step
    "lg_fmt_key_missing": {"fmt": "stepped"},
    # the evaluation ends the W&B run after its report (meant for the last epoch only)
    "lg_wandb_log_after_finish": {"wandb": True, "finish_in_eval": True},
    # the validation metrics logged at the epoch's first step, after its training steps
    "lg_wandb_step_backwards": {"wandb": True, "val_step": "epoch_start"},
    # sample images each epoch (the resize written for Pillow 9)
    "lg_resize_antialias": {"samples": True},
}

EPOCHS, STEPS, BATCH = 2, 5, 8


def batches(gen: torch.Generator):
    for _ in range(STEPS):
        x = torch.rand(BATCH, 3, 8, 8, generator=gen)
        y = (x.mean(dim=(1, 2, 3)) * 4).long().clamp(max=3)
        yield x, y


def evaluate(model: nn.Module, gen: torch.Generator) -> float:
    correct = total = 0
    with torch.no_grad():
        for x, y in batches(gen):
            correct += (model(x).argmax(1) == y).sum().item()
            total += len(y)
    return correct / total


def run(case: str) -> None:
    cfg = CASES[case]
    root = Path(tempfile.gettempdir()) / "tracklog_runs"
    run_dir = root / f"{case}-{os.getpid()}"
    run_dir.mkdir(parents=True, exist_ok=True)
    if cfg.get("overwrite"):
        run_dir = fresh_run_dir(root, run_dir.name)
    log = setup_logging(run_dir, cfg.get("fmt", "plain"))
    tracker = Tracker(run_dir, use_wandb=cfg.get("wandb", False))
    gen = torch.Generator().manual_seed(0)
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 32), nn.ReLU(), nn.Linear(32, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    step = 0
    for epoch in range(EPOCHS):
        epoch_start = step
        for x, y in batches(gen):
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            log.info("loss %.4f", loss.item(), extra={"step": step})
            tracker.log(step, {"train/loss": loss.item()})
            step += 1
        acc = evaluate(model, gen)
        val_step = epoch_start if cfg.get("val_step") == "epoch_start" else step
        tracker.log(val_step, {"val/acc": acc})
        if cfg.get("finish_in_eval"):
            tracker.close()
        if cfg.get("samples"):
            save_samples(x, run_dir / "samples", epoch)
        log.info("epoch %d: loss %.4f, val acc %.3f", epoch, loss.item(), acc)
    tracker.close()
    print(f"done: {step} steps, logs in {run_dir}")
