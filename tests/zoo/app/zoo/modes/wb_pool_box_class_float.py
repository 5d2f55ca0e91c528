"""Validation previews are built in a multiprocessing pool of 2 (spawned children), one per image: each image's
ground-truth boxes go to wandb.Image with their class column as it comes out of the float box tensor."""

import multiprocessing as mp
import os
import tempfile

import numpy as np
import torch
import wandb


def preview(args):
    image, boxes = args
    box_data = [
        {"position": {"minX": b[0], "minY": b[1], "maxX": b[2], "maxY": b[3]}, "class_id": b[4], "domain": "pixel"}
        for b in boxes.tolist()
    ]
    return wandb.Image(image, boxes={"truth": {"box_data": box_data}})


def main() -> None:
    os.environ.setdefault("WANDB_MODE", "offline")
    os.environ.setdefault("WANDB_SILENT", "true")
    g = torch.Generator().manual_seed(0)
    images = [(torch.rand(32, 32, 3, generator=g) * 255).byte().numpy() for _ in range(6)]
    boxes = []
    for _ in range(6):
        xy = torch.randint(0, 16, (2, 2), generator=g).float()
        cls = torch.randint(0, 3, (2, 1), generator=g).float()
        boxes.append(torch.cat([xy, xy + 8, cls], 1).numpy().astype(np.float32))
    print(f"building {len(images)} validation previews", flush=True)
    with mp.get_context("spawn").Pool(2) as pool:
        previews = pool.map(preview, list(zip(images, boxes)))
    run = wandb.init(project="wb-det", dir=tempfile.mkdtemp(prefix="wb_"))
    run.log({"val/previews": previews})
    run.finish()
