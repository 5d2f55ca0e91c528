"""Per-batch image logging to W&B (offline)."""

import os

import wandb


def start(root: str, case: str):
    os.environ.setdefault("WANDB_MODE", "offline")
    os.environ.setdefault("WANDB_SILENT", "true")
    return wandb.init(project="segkit", name=case, dir=root, config={"case": case})


def log_batch(run, step: int, x, y, logits) -> None:
    run.log({"inputs": wandb.Image(x, caption=f"step {step}")}, step=step)


def log_masks(run, step: int, x, y, logits) -> None:
    pred = logits.argmax(1, keepdim=True)
    image = wandb.Image(
        x[0],
        masks={"pred": {"mask_data": pred[0].numpy()}, "truth": {"mask_data": y[0].numpy()}},
    )
    run.log({"masks": image}, step=step)
