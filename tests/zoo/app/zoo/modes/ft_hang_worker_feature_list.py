"""Feature extraction in DataLoader workers, each with its own copy of the pretrained backbone: the features of
one clip's frames are kept as a list (clips have different lengths), so the loader's collate returns the list
as it is. The backbone is "frozen" only by leaving it out of the optimizer, so each feature carries a graph."""

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class ClipFeatures(Dataset):
    def __init__(self, backbone: nn.Module, n: int = 32) -> None:
        self.backbone = backbone
        self.clips = [torch.randn(2 + i % 3, 3, 16, 16) for i in range(n)]

    def __len__(self) -> int:
        return len(self.clips)

    def __getitem__(self, i: int) -> torch.Tensor:
        return self.backbone(self.clips[i]).mean(0)


def keep_list(batch: list) -> list:
    return batch


def main() -> None:
    backbone = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
    head = nn.Linear(8, 2)
    opt = torch.optim.SGD(head.parameters(), lr=0.1)
    loader = DataLoader(ClipFeatures(backbone), batch_size=4, num_workers=2, collate_fn=keep_list)
    print("extracting clip features in 2 workers", flush=True)
    for feats in loader:
        loss = head(torch.stack(feats)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("done")
