"""A joint random-rescale augmentation for segmentation in 2 DataLoader workers: every fifth sample is
rescaled, the image with `F.interpolate(mode="bilinear")` and its class-index mask (int64, as
cross_entropy wants it) with `mode="nearest"`, which has no kernel for integer tensors."""

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

NUM_CLASSES = 3


class Scenes(Dataset):
    def __len__(self) -> int:
        return 24

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        g = torch.Generator().manual_seed(i)
        image = torch.rand(3, 48, 48, generator=g)
        mask = torch.randint(0, NUM_CLASSES, (48, 48), generator=g)
        if i % 5 == 4:
            image = F.interpolate(image[None], size=(32, 32), mode="bilinear", align_corners=False)[0]
            mask = F.interpolate(mask[None, None], size=(32, 32), mode="nearest")[0, 0]
            image = F.pad(image, (0, 16, 0, 16))
            mask = F.pad(mask, (0, 16, 0, 16), value=255)
        return image, mask


def main() -> None:
    loader = DataLoader(Scenes(), batch_size=4, num_workers=2)
    head = torch.nn.Conv2d(3, NUM_CLASSES, 1)
    for i, (image, mask) in enumerate(loader):
        loss = F.cross_entropy(head(image), mask, ignore_index=255)
        print(f"batch {i} loss {loss.item():.4f}", flush=True)
