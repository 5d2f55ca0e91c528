"""Segmentation masks decoded from the annotation tool's rows of class ids into uint8 arrays, in 2 DataLoader
workers. The tool marks unlabelled border pixels `-1` ("void"); numpy 2 refuses to put -1 into uint8 (numpy 1
wrapped it to 255, the ignore index the loss was told to skip)."""

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Masks(Dataset):
    def __init__(self, n: int):
        self.rows = []
        for i in range(n):
            mask = [[(r + c + i) % 4 for c in range(16)] for r in range(16)]
            if i == 13:  # the one image whose border the annotator left unlabelled
                mask[0] = [-1] * 16
            self.rows.append(mask)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int):
        mask = np.array(self.rows[i], dtype=np.uint8)
        image = torch.randn(3, 16, 16)
        return image, torch.from_numpy(mask).long()


def main() -> None:
    loader = DataLoader(Masks(32), batch_size=4, num_workers=2)
    conv = torch.nn.Conv2d(3, 4, 1)
    for step, (image, mask) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(conv(image), mask, ignore_index=255)
        print(f"step {step} loss {float(loss):.4f}", flush=True)
