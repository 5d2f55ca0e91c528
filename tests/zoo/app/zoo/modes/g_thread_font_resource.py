"""A background thread renders each epoch's sample grid with a caption (the epoch, the loss) and saves it;
its font is named as on the developer's Windows machine ("arial.ttf"), which this Linux box does not have.
The thread keeps its error and the main re-raises it once training is done."""

import os
import queue
import tempfile
import threading

import numpy as np
import torch
from PIL import Image, ImageDraw, ImageFont


class GridWriter(threading.Thread):
    def __init__(self, out: str):
        super().__init__(name="grid-writer", daemon=True)
        self.out, self.jobs, self.error = out, queue.Queue(), None

    def run(self) -> None:
        try:
            font = ImageFont.truetype("arial.ttf", 12)
            while (job := self.jobs.get()) is not None:
                epoch, loss, grid = job
                im = Image.fromarray(grid)
                ImageDraw.Draw(im).text((2, 2), f"epoch {epoch} loss {loss:.3f}", font=font, fill=(255, 0, 0))
                im.save(os.path.join(self.out, f"grid_{epoch:02d}.png"))
        except Exception as e:
            self.error = e


def main() -> None:
    writer = GridWriter(tempfile.mkdtemp(prefix="grids-"))
    writer.start()
    model = torch.nn.Linear(16, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        x = torch.randn(64, 16)
        loss = (model(x) - x.sum(1, keepdim=True)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        grid = (np.random.default_rng(epoch).random((64, 64, 3)) * 255).astype(np.uint8)
        writer.jobs.put((epoch, loss.item(), grid))
        print(f"epoch {epoch} loss {loss.item():.3f}", flush=True)
    writer.jobs.put(None)
    writer.join()
    if writer.error is not None:
        raise RuntimeError("the grid writer thread failed") from writer.error
