"""Per-batch previews go through a bounded queue (4 slots) to a logger thread that uploads them to W&B; the
thread is started with the rest of the run's teardown, after the training loop, so the loop's fifth put waits."""

import os
import queue
import tempfile
import threading

import numpy as np
import torch
import wandb


def uploader(run, previews: queue.Queue) -> None:
    while (item := previews.get()) is not None:
        step, pixels = item
        run.log({"preview": wandb.Image(pixels)}, step=step)


def main() -> None:
    os.environ.setdefault("WANDB_MODE", "offline")
    os.environ.setdefault("WANDB_SILENT", "true")
    run = wandb.init(project="wb-preview", dir=tempfile.mkdtemp(prefix="wb_"))
    previews: queue.Queue = queue.Queue(maxsize=4)
    g = torch.Generator().manual_seed(0)
    net = torch.nn.Conv2d(3, 3, 3, padding=1)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for step in range(10):
        x = torch.rand(4, 3, 16, 16, generator=g)
        loss = (net(x) - x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
        previews.put((step, (x[0].permute(1, 2, 0).numpy() * 255).astype(np.uint8)))
    thread = threading.Thread(target=uploader, args=(run, previews), name="preview-uploader")
    thread.start()
    previews.put(None)
    thread.join()
    run.finish()
