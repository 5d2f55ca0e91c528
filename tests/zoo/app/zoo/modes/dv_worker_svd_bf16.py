"""Images kept in bfloat16 to halve the dataset's memory; the AlexNet-style PCA lighting augmentation runs
`torch.linalg.svd` on each image's colour covariance in the DataLoader's 2 workers, and the CPU has no bfloat16
SVD."""

import torch
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    def __init__(self, n: int = 32):
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n, 3, 16, 16, generator=g).to(torch.bfloat16)

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int):
        img = self.images[i]
        pixels = img.flatten(1)
        cov = pixels @ pixels.T / pixels.shape[1]
        u, s, _ = torch.linalg.svd(cov)
        shift = u @ (s * 0.1 * torch.randn(3, dtype=s.dtype))
        return img + shift[:, None, None], i % 4


def main() -> None:
    loader = DataLoader(Images(), batch_size=8, num_workers=2)
    for step, (x, _y) in enumerate(loader):
        print(f"batch {step} {tuple(x.shape)}", flush=True)
