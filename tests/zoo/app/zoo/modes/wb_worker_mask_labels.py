"""A segmentation dataset prepares its W&B preview in the DataLoader workers: every eighth sample comes with a
wandb.Image of its mask, the class labels read from the dataset's JSON sidecar (whose keys are strings)."""

import json
import os
import tempfile

import numpy as np
import torch
import wandb
from torch.utils.data import DataLoader, Dataset

SIDECAR = '{"0": "background", "1": "road", "2": "car"}'


class Scenes(Dataset):
    def __init__(self, n: int = 32) -> None:
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n, 3, 24, 24, generator=g)
        self.masks = torch.randint(0, 3, (n, 24, 24), generator=g)
        self.class_labels = json.loads(SIDECAR)

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int):
        preview = None
        if i % 8 == 5:
            image = (self.images[i].permute(1, 2, 0).numpy() * 255).astype(np.uint8)
            mask = self.masks[i].numpy().astype(np.uint8)
            preview = wandb.Image(image, masks={"truth": {"mask_data": mask, "class_labels": self.class_labels}})
        return self.images[i], self.masks[i], preview is not None


def main() -> None:
    os.environ.setdefault("WANDB_MODE", "offline")
    os.environ.setdefault("WANDB_SILENT", "true")
    run = wandb.init(project="wb-seg", dir=tempfile.mkdtemp(prefix="wb_"))
    torch.manual_seed(0)
    net = torch.nn.Conv2d(3, 3, 3, padding=1)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    loader = DataLoader(Scenes(), batch_size=4, num_workers=2)
    for step, (x, m, _) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(net(x), m)
        opt.zero_grad()
        loss.backward()
        opt.step()
        run.log({"loss": loss.item()}, step=step)
        print(f"step {step} loss {loss.item():.4f}", flush=True)
    run.finish()
