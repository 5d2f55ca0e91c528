"""Images of several sizes, resized in the loader's workers to the pretrained model's input size."""

import torch
import torch.nn.functional as F
from torch.utils.data import Dataset

INPUT_SIZE = (16, 16)


class Images(Dataset):
    def __init__(self, n: int = 32, classes: int = 3) -> None:
        g = torch.Generator().manual_seed(1)
        self.images = [torch.rand(3, 12 + 4 * (i % 3), 20, generator=g) for i in range(n)]
        self.labels = torch.randint(0, classes, (n,), generator=g)

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        img = F.interpolate(self.images[i], size=INPUT_SIZE, mode="bilinear", align_corners=False)
        return img, self.labels[i]
