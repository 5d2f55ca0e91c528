"""A debug preview of each augmented sample, written by the Dataset itself in 2 DataLoader workers: the sample is
already a CHW uint8 tensor (the model's layout) when it is handed to `Image.fromarray`, which reads the last axis
as the channels."""

import tempfile
from pathlib import Path

import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset


class Augmented(Dataset):
    def __init__(self, n: int, preview_dir: Path) -> None:
        g = torch.Generator().manual_seed(0)
        self.images = torch.randint(0, 256, (n, 3, 32, 32), dtype=torch.uint8, generator=g)
        self.preview_dir = preview_dir

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int):
        x = self.images[i].flip(-1)  # the augmentation: a horizontal flip
        if i % 4 == 0:  # preview one sample in four
            Image.fromarray(x.numpy()).save(self.preview_dir / f"sample{i}.png")
        return x.float() / 255, i % 10


def main() -> None:
    preview_dir = Path(tempfile.mkdtemp(prefix="previews_"))
    loader = DataLoader(Augmented(32, preview_dir), batch_size=4, num_workers=2)
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 32 * 32, 10))
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        print(f"step {step} loss {loss.item():.4f}", flush=True)
