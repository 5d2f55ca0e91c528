"""A collate_fn that concatenates images of different widths along the batch dimension (torch.cat), in two
DataLoader workers: the images are not resized to one size first."""

import torch
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        width = 32 if i % 5 else 28  # every fifth scan is narrower
        return {"image": torch.zeros(1, 3, 32, width), "label": i % 2}


def collate(samples: list) -> dict:
    images = torch.cat([s["image"] for s in samples], dim=0)
    labels = torch.tensor([s["label"] for s in samples])
    return {"image": images, "label": labels}


def main() -> None:
    loader = DataLoader(Images(), batch_size=4, num_workers=2, collate_fn=collate)
    for batch in loader:
        print(batch["image"].shape)
