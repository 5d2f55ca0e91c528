"""ddp_spawn, 2 ranks: a loader worker of rank 1 meets a corrupt PNG; rank 1 fails, then the launcher ends rank 0.

The images were copied to the run folder and one copy has a flipped byte inside its compressed pixel data. The
distributed sampler deals it to rank 1 (odd indices), whose worker 0 decodes it for its first batch; rank 0 is by
then in the gradient all-reduce, waiting for rank 1.
"""

import io
import os
import tempfile

import numpy as np
import torch
from PIL import Image
from torch.utils.data import Dataset

from zoo.modes.lk_common import Classifier, loader, trainer


class Images(Dataset):
    def __init__(self, folder: str) -> None:
        self.paths = sorted(os.path.join(folder, name) for name in os.listdir(folder))

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, i: int):
        with Image.open(self.paths[i]) as image:
            pixels = np.asarray(image.convert("L").resize((4, 4)), dtype=np.float32) / 255.0
        return torch.from_numpy(pixels).flatten(), i % 4


def write_images(folder: str, n: int = 32) -> None:
    for i in range(n):
        pixels = ((np.arange(32 * 32 * 3) * (i + 1)) % 251).astype(np.uint8).reshape(32, 32, 3)
        buf = io.BytesIO()
        Image.fromarray(pixels).save(buf, "PNG")
        data = bytearray(buf.getvalue())
        if i == 5:  # the copy with a flipped byte
            at = data.index(b"IDAT") + 20
            data[at] ^= 0xFF
        with open(os.path.join(folder, f"img_{i:03d}.png"), "wb") as f:
            f.write(data)


def main() -> None:
    folder = tempfile.mkdtemp(prefix="lk_images_")
    write_images(folder)
    images = loader(Images(folder), batch_size=4, num_workers=2, multiprocessing_context="fork")
    trainer(devices=2, strategy="ddp_spawn").fit(Classifier(), images)
    print("done")
