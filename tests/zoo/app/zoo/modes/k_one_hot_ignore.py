"""Labels padded with the ignore index -1, passed to F.one_hot: negative class values are refused."""

import torch
import torch.nn.functional as F


def main() -> None:
    labels = torch.tensor([2, 0, -1, -1])
    print(F.one_hot(labels, num_classes=3).sum())
