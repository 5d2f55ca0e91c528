"""An evaluation thread (ThreadPoolExecutor) reads the model's `feature_dim` property; the property reads
`self.proj`, renamed `self.projection` in a refactor. nn.Module.__getattr__ catches the AttributeError raised
inside the property and reports the property itself as missing; the main re-raises it from future.result()."""

from concurrent.futures import ThreadPoolExecutor

import torch
from torch import nn


class Embedder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.backbone = nn.Linear(12, 32)
        self.projection = nn.Linear(32, 16)

    @property
    def feature_dim(self) -> int:
        return self.proj.out_features

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.projection(torch.relu(self.backbone(x)))


def evaluate(model: Embedder) -> float:
    with torch.no_grad():
        feats = model(torch.randn(20, 12))
    bank = torch.zeros(100, model.feature_dim)
    return float(feats.norm() + bank.sum())


def main() -> None:
    model = Embedder()
    with ThreadPoolExecutor(max_workers=1) as pool:
        future = pool.submit(evaluate, model)
        print("evaluation submitted")
        print("score", future.result())
