"""The training loop: a small conv net regressing each image's brightness, SGD, MSE loss."""

import json
import logging
import os

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image
from torch.utils.data import DataLoader

from bfit.callbacks import Callbacks
from bfit.data import ImageTable, make_images

log = logging.getLogger("bfit.train")


class Net(torch.nn.Module):
    def __init__(self, head: str):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8, 1)
        self.head = head

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = F.relu(self.conv(x)).mean(dim=(2, 3))
        out = self.fc(h)
        return out if self.head == "column" else out.squeeze(1)


def compute_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return F.mse_loss(pred, target)


def save_sample_grid(cfg) -> None:
    grid = Image.new("RGB", (64, 16))
    for i, img in enumerate(make_images(4)):
        grid.paste(img, (16 * i, 0))
    grid.save(os.path.join(cfg.out_dir, "samples", "grid.png"))


def shrink_perturb(model: torch.nn.Module, shrink: float = 0.5, noise: float = 0.01) -> None:
    """Warm-start trick between epochs: shrink every weight and add a little noise."""
    for p in model.parameters():
        p.mul_(shrink).add_(noise * torch.randn_like(p))


def write_summary(cfg, losses: list) -> None:
    summary = {"case": cfg.case, "epochs": cfg.epochs, "final_loss": np.mean(losses[-3:])}
    text = json.dumps(summary)
    os.makedirs(cfg.out_dir, exist_ok=True)
    with open(os.path.join(cfg.out_dir, "summary.json"), "w") as f:
        f.write(text)


def fit(cfg) -> None:
    torch.manual_seed(0)
    os.makedirs(cfg.out_dir, exist_ok=True)
    data = ImageTable(cfg)
    loader = DataLoader(data, batch_size=cfg.batch, shuffle=False, num_workers=cfg.workers)
    model = Net(cfg.head)
    opt = torch.optim.SGD(model.parameters(), lr=cfg.lr)
    callbacks = Callbacks(cfg.callbacks)
    if cfg.sample_grid:
        try:
            save_sample_grid(cfg)
        except OSError:
            log.exception("could not save the sample grid; training goes on without it")
    losses = []
    for epoch in range(cfg.epochs):
        total = 0.0
        for x, y in loader:
            loss = compute_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.detach().numpy())
            total += loss.item()
        callbacks.fire("on_epoch_end", epoch, {"loss": total / len(loader)})
        if cfg.shrink_perturb and epoch < cfg.epochs - 1:
            shrink_perturb(model)
    if cfg.summary:
        try:
            write_summary(cfg, losses)
        except (OSError, TypeError):
            log.exception("could not write the run summary")
