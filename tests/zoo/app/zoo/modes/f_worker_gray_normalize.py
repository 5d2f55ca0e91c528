"""Images read with PIL into tensors and normalised in place with the three ImageNet channel means, in 2
DataLoader workers; one image of the folder was saved in grayscale (mode "L"), so its tensor has one channel."""

import os
import tempfile

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset

MEAN = torch.tensor([0.485, 0.456, 0.406])[:, None, None]
STD = torch.tensor([0.229, 0.224, 0.225])[:, None, None]


def write_images(root: str, n: int) -> list[str]:
    rng = np.random.default_rng(0)
    paths = []
    for i in range(n):
        im = Image.fromarray(rng.integers(0, 255, (32, 32, 3), dtype=np.uint8))
        if i == 13:
            im = im.convert("L")
        paths.append(os.path.join(root, f"img_{i:02d}.png"))
        im.save(paths[-1])
    return paths


class Images(Dataset):
    def __init__(self, paths: list[str]):
        self.paths = paths

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, i: int) -> torch.Tensor:
        x = torch.from_numpy(np.asarray(Image.open(self.paths[i]))).float().div(255)
        x = x.permute(2, 0, 1) if x.ndim == 3 else x[None]
        return x.sub_(MEAN).div_(STD)


def main() -> None:
    paths = write_images(tempfile.mkdtemp(), 24)
    loader = DataLoader(Images(paths), batch_size=4, num_workers=2)
    for i, batch in enumerate(loader):
        print(f"batch {i}: {tuple(batch.shape)} mean {batch.mean().item():.3f}", flush=True)
