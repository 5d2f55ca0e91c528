"""Feature extraction in DataLoader workers: each of 2 workers gets its own copy of the pretrained backbone (the
dataset holds it) and returns the backbone's features for its image. The backbone is "frozen" only by leaving it
out of the optimizer: its parameters still require grad, so each worker's features carry a graph."""

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class FeatureDataset(Dataset):
    def __init__(self, backbone: nn.Module, n: int = 64) -> None:
        self.backbone = backbone
        self.images = torch.randn(n, 3, 16, 16)

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int) -> torch.Tensor:
        return self.backbone(self.images[i].unsqueeze(0)).squeeze(0)


def main() -> None:
    backbone = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
    dataset = FeatureDataset(backbone)
    head = nn.Linear(8, 2)
    opt = torch.optim.SGD(head.parameters(), lr=0.1)
    loader = DataLoader(dataset, batch_size=8, num_workers=2)
    print("extracting features in 2 workers", flush=True)
    for feats in loader:
        loss = head(feats).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("done")
