"""The loop: a DataLoader over the case's data, a tiny conv net, cross-entropy, per-batch logging."""

import json
import os

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from segkit import logging as imglog
from segkit.datasets import NUM_CLASSES, PreloadedSegDataset, SegDataset, build_thumbnail_cache, write_data
from segkit.model import TinySeg
from segkit.transforms import AutoContrast, Compose, Normalize, RandomCrop

TRANSFORMS = {
    "worker_16bit_autocontrast": lambda root: Compose(AutoContrast()),
    "worker_crop_numpy_high": lambda root: Compose(RandomCrop(32)),
}
DATASETS = {"worker_closed_lazy_image": PreloadedSegDataset}
LOGGERS = {"wandb_image_batch": imglog.log_batch, "wandb_mask_keepdim": imglog.log_masks}


def write_stats(root: str) -> str:
    # written by the stats script when the dataset was still RGBA PNGs (alpha channel included)
    path = os.path.join(root, "stats.json")
    with open(path, "w") as f:
        json.dump({"mean": [0.21, 0.18, 0.25, 1.0], "std": [0.12, 0.11, 0.14, 0.01]}, f)
    return path


def train_step(model, opt, x, y) -> tuple[torch.Tensor, torch.Tensor]:
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss, logits


def main(args: dict) -> None:
    case = args["case"]
    workers, log_every = int(args.get("workers", 2)), int(args.get("log_every", 1))
    root = write_data(os.path.join(args.get("data", "data"), case), case)
    print(f"case {case}: {len(os.listdir(os.path.join(root, 'images')))} images in {root}", flush=True)
    if case == "child_exif_none":
        print(f"{len(build_thumbnail_cache(root))} thumbnails cached", flush=True)
    normalize = Normalize(write_stats(root)) if case == "worker_norm_stats_4ch" else None
    transform = TRANSFORMS.get(case, lambda root: None)(root)
    dataset = DATASETS.get(case, SegDataset)(root, transform, normalize)
    loader = DataLoader(dataset, batch_size=4, num_workers=workers)
    torch.manual_seed(0)
    model = TinySeg(NUM_CLASSES)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    log = LOGGERS.get(case)
    run = imglog.start(root, case) if log else None
    for epoch in range(2):
        for step, (x, y) in enumerate(loader):
            loss, logits = train_step(model, opt, x, y)
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
            if log and step % log_every == 0:
                log(run, step, x, y, logits.detach())
    if run is not None:
        run.finish()
