"""The run's tracking: an offline W&B run, per-batch prediction tables and gradient histograms."""

import os
import tempfile

import torch
import wandb

from trackkit.images import CLASSES, to_uint8


def start(args, config_style: str = "dict"):
    os.environ.setdefault("WANDB_MODE", "offline")
    os.environ.setdefault("WANDB_SILENT", "true")
    params = {"case": args.case, "epochs": args.epochs, "lr": args.lr}
    # the keys in a stable order for the run's page
    config = sorted(params.items()) if config_style == "pairs" else params
    return wandb.init(project="trackkit", dir=tempfile.mkdtemp(prefix="wb_"), config=config)


def prediction_table(x: torch.Tensor, y: torch.Tensor, logits: torch.Tensor, with_score: bool):
    columns = ["image", "label", "pred"]
    table = wandb.Table(columns=columns)
    probs = logits.softmax(1)
    for i in range(min(4, len(y))):
        row = [wandb.Image(to_uint8(x[i])), CLASSES[int(y[i])], CLASSES[int(probs[i].argmax())]]
        if with_score:
            row.append(float(probs[i].max()))
        table.add_data(*row)
    return table


def log_batch(run, step: int, loss: float, x, y, logits, with_score: bool = False) -> None:
    run.log({"loss": loss, "predictions": prediction_table(x, y, logits, with_score)}, step=step)


def log_confidence(run, step: int, logits: torch.Tensor) -> None:
    # how sure the model is, per sample: the log of its top output
    conf = torch.log(logits.detach().max(1).values)
    run.log({"log_confidence": wandb.Histogram(conf.numpy())}, step=step)
