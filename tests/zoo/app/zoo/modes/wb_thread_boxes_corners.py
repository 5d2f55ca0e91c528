"""Detection previews are drawn off the training thread (a ThreadPoolExecutor of 2): each batch's first image
goes to W&B with its predicted boxes, given as the detector's corner coordinates straight in each box's dict
(no `position` dict around them); the main collects each preview's future before it logs the step."""

import os
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch
import wandb


def preview(image: torch.Tensor, boxes: torch.Tensor, step: int):
    pixels = (image.permute(1, 2, 0).numpy() * 255).astype(np.uint8)
    box_data = [
        {"minX": float(b[0]), "minY": float(b[1]), "maxX": float(b[2]), "maxY": float(b[3]), "class_id": 1}
        for b in boxes
    ]
    return wandb.Image(pixels, boxes={"predictions": {"box_data": box_data}}, caption=f"step {step}")


def main() -> None:
    os.environ.setdefault("WANDB_MODE", "offline")
    os.environ.setdefault("WANDB_SILENT", "true")
    run = wandb.init(project="wb-det", dir=tempfile.mkdtemp(prefix="wb_"))
    g = torch.Generator().manual_seed(0)
    head = torch.nn.Linear(3 * 32 * 32, 4)
    opt = torch.optim.SGD(head.parameters(), lr=0.01)
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="preview") as pool:
        for step in range(4):
            x = torch.rand(8, 3, 32, 32, generator=g)
            target = torch.rand(8, 4, generator=g)
            pred = head(x.flatten(1)).sigmoid()
            loss = torch.nn.functional.l1_loss(pred, target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(f"step {step} loss {loss.item():.4f}", flush=True)
            fut = pool.submit(preview, x[0], pred[:2].detach(), step)
            run.log({"loss": loss.item(), "preview": fut.result()}, step=step)
    run.finish()
